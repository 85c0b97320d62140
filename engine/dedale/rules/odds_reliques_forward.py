"""The forward pass of the reliques fight DP (see :mod:`dedale.rules.odds_reliques_dp`): the
outcome distribution of the best policy, each turn start's kernel spread on in order of
progress."""

from __future__ import annotations

import heapq

ESCAPED = "escaped"
_LOST = ("lost",)  # a kernel's key: the hero dead
_SELF = ("self",)  # a kernel's key: the turn start's own state again


class ForwardPass:
    """Mixed into ``_ReliquesDP``: the outcomes of the best policy once its values are known."""

    def _forward(self, start: tuple) -> dict[tuple[str, int, int, int], float]:
        """The outcome distribution of the best policy: turn starts in order of progress
        (fewer resources, later turns), each one's turn kernel spread on."""
        self.kernels = True
        mass = {start: 1.0}
        heap = [(_progress(start), 0, start)]
        outcomes: dict[tuple[str, int, int, int], float] = {}
        pushed = 0
        for _ in range(self.max_nodes):
            if not heap:
                break
            state = heapq.heappop(heap)[2]
            m = mass.pop(state, None)
            if m is None:
                continue
            way = self._terminal(state)
            if way is not None:
                if self._doomed(state, way):  # to a death ending: lost, no way on
                    continue
                key = (way, state[0], state[1], state[2])
                outcomes[key] = outcomes.get(key, 0.0) + m
                continue
            found = self.turn_kernels.get(state)
            if found is None:  # kept: the same fight entered again spreads from here at once
                choice = self.choice[state]
                if choice[0] == "escape":
                    self.v = 0.0
                    kernel = self._escape(state)[2]
                else:
                    self.v = self.values[state]
                    self.local.clear()
                    kernel = self._turn(state, choice[1])[2]
                stay = kernel.pop(_SELF, 0.0)
                found = self.turn_kernels[state] = (stay, tuple(kernel.items()))
            stay, kernel_items = found
            scale = m / (1.0 - stay) if stay < 1.0 else 0.0
            for key, q in kernel_items:
                if key == _LOST:
                    continue
                if key[0] == ESCAPED:
                    outcomes[key] = outcomes.get(key, 0.0) + scale * q
                else:
                    if key not in mass:
                        pushed += 1
                        heapq.heappush(heap, (_progress(key), pushed, key))
                    mass[key] = mass.get(key, 0.0) + scale * q
        self.kernels = False
        return outcomes


def _progress(state: tuple) -> tuple:
    """Every turn goes to a state of larger progress (or stays): resources only fall."""
    hh, hp, c, es, t = state
    turns = sum(x or 0 for x in t) if isinstance(t, tuple) else (t or 0)  # turns (and won)
    return turns - hh - hp - c - sum(eh + ep for eh, ep in es)
