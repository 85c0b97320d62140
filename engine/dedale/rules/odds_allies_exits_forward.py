"""The joint outcomes of a fight with allies and exits: by which way the hero leaves it, and
with what STAMINA and LUCK (the path of fights, issue 14.4).

:class:`~dedale.rules.odds_allies_exits.AllyExitSolver` gives the chance to leave the fight
alive, every way out worth 1. Here each way out is labelled where the solver ends the fight
(its ``_out`` hook): the way (won, first assault won, an exit on a condition, an event
that turns to a paragraph, the threshold, the assaults won, the assault limit, escaped, a
table row), the rule it stands for, and the hero's STAMINA and LUCK then. The values, and
so the choices, are the solver's own (a labelled end is the float 1.0).

:class:`AllyExitForward` pushes a start's probability mass through the solver's states
along its choices — Luck tested where the value says it gains (``luck_gains``), the escape
taken where it is at least as good a chance to leave alive (within ``TIE``, as the path's
other escapes) — in the order of :meth:`_order` (every move lowers the hero's, the enemy's
or an ally's STAMINA, or LUCK, or moves on an assault; a state met again gets its new mass
pushed again, which the pass being linear makes exact). What comes back to the same state
(ties all round) is folded in exactly, as the solver does. One solver serves every start
(its values are kept); its own bounds (states, CPU seconds) apply, and the forward pass
counts its states against ``MAX_STATES``.

The last enemy's fall, by the hero's blow, an event or an ally's, is a win, or "first
assault won" when it was the first assault and the fight has that rule (the interpreter's
check after the fight, ``game/fight_extras.py``).
"""

from __future__ import annotations

import heapq
from typing import Any

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.odds import luck_gains, luck_pick
from dedale.rules.odds_allies_exits import AllyExitSolver
from dedale.rules.odds_exits_dice import assault_outcomes
from dedale.rules.odds_exits_plan import MAX_STATES, ExitOddsTooLarge, past_states
from dedale.rules.odds_inputs import check_size

TIE = 1e-9  # an escape within this of fighting on is taken (the path's other escapes)
LOST = None


class End(float):
    """A way out alive, worth 1.0 to the solver, labelled ``(STAMINA, LUCK, way, rule)``."""

    key: tuple


class LabelledAllySolver(AllyExitSolver):
    """The allies' exits DP, its ways out labelled (``rule_kinds``: the kinds of the fight's
    rules as written, to name the rule each event or exit stands for)."""

    def __init__(self, *args, rule_kinds: tuple[str, ...] = (), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        events = [at for at, kind in enumerate(rule_kinds) if kind == "event"]
        exits = [at for at, kind in enumerate(rule_kinds) if kind == "exit"]
        if len(events) != len(self.plan.events) or len(exits) != len(self.plan.exits):
            raise GameError(tr("the fight's rules do not match its plan"))
        self.rule_of = {"event": events, "exit": exits}
        self.first_at = next((at for at, kind in enumerate(rule_kinds) if kind == "first"), -1)

    def _out(self, h: int, luck: int, way: str, at: int = -1, k: int = 0) -> float:
        if way == "won" and k == 1 and self.first_at >= 0:
            way, at = "first", self.first_at
        elif way == "first":
            at = self.first_at
        elif way in self.rule_of:
            at = self.rule_of[way][at]
        end = End(1.0)
        end.key = (h, luck, way, at)
        return end


class AllyExitForward:
    """One labelled solver and its forward passes, for every start of one fight setting."""

    def __init__(self, solver: LabelledAllySolver) -> None:
        self.solver = solver
        self.states = 0  # states pushed by all the passes (MAX_STATES at most)

    def outcomes(self, stamina: int, luck: int | None) -> tuple[dict[tuple, float], float]:
        """({(STAMINA, LUCK, way, rule): chance}, chance lost) from one start."""
        solver = self.solver
        plan = solver.plan
        check_size(max(0, luck or 0), stamina, plan.enemies)
        counters = tuple(v for _, v in plan.counters) + tuple(s for _, s in solver.allies)
        start = (0, stamina, plan.enemies[0][1], luck or 0, 0, 0, not solver.track_hit,
                 counters, 0)  # fmt: skip
        try:
            solver.value(start)  # the values, and so the choices
            return self._run(start)
        except RecursionError:
            raise ExitOddsTooLarge(tr("the fight's states are too deep to compute")) from None

    def _run(self, start: tuple) -> tuple[dict[tuple, float], float]:
        found: dict[tuple, float] = {}
        lost = 0.0
        pending = {start: 1.0}
        heap = [(_order(start, self.solver.own), start)]
        while heap:
            _, state = heapq.heappop(heap)
            mass = pending.pop(state, 0.0)
            if not mass:
                continue
            self.states += 1
            if self.states > MAX_STATES:
                raise past_states()
            for share, nxt in self._moves(state):
                flow = mass * share
                if isinstance(nxt, End):
                    found[nxt.key] = found.get(nxt.key, 0.0) + flow
                elif isinstance(nxt, float):
                    lost += flow
                else:
                    if nxt not in pending:
                        heapq.heappush(heap, (_order(nxt, self.solver.own), nxt))
                        pending[nxt] = 0.0
                    pending[nxt] += flow
        return found, lost

    def _moves(self, state: tuple) -> list[tuple[float, Any]]:
        """The state's successors along the solver's choices, ties folded: ``(share, next
        state or End or 0.0)``; as :meth:`AllyExitSolver._value`."""
        s = self.solver
        index, h, e, luck, k, won, hit, counters, shift = state
        done, escape, lead, immune, k2 = s._assault_start(state)
        if s.plan.limit is not None and k >= s.plan.limit:
            return [(1.0, _end(h, luck, "limit"))]
        if done is not None or (escape > 0 and not escape < s.value(state) - TIE):
            return self._escape(h, luck)
        moves: list[tuple[float, Any]] = []
        stay = 0.0
        for p, winner, double in assault_outcomes(s.fight, lead, immune, s.doubles):
            if winner == "enemy" and not (s.armour and k == 0):
                for share, mode in s.modes:
                    options = s._struck(state, k2, mode)
                    rows, back = self._chosen(state, options, winner, double, ((1.0, mode),))
                    stay += p * share * back
                    moves += [(p * share * q, nxt) for q, nxt in rows]
                continue
            options = [[(*move, 0) for move in option]
                       for option in s._after_wounds(state, winner, k2)]  # fmt: skip
            rows, back = self._chosen(state, options, winner, double, s.modes)
            stay += p * back
            moves += [(p * q, nxt) for q, nxt in rows]
        if stay >= 1.0:
            raise GameError(tr("a fight in which nobody is ever wounded"))
        scale = 1.0 / (1.0 - stay)
        return [(share * scale, nxt) for share, nxt in moves]

    def _chosen(self, state: tuple, options, winner: str, double: bool, modes):
        """The rows of the option :meth:`AllyExitSolver._best` keeps (its chance is computed
        the same way, so the same option wins), and the chance of this state again."""
        s = self.solver
        best = None
        for option in options:
            chance = back = 0.0
            rows = []
            for q, nxt, dealt, wound, given in option:
                for share, mode in modes:
                    for r, found in s._next(nxt, winner, double, dealt, wound, mode, given):
                        if found == state:
                            back += q * share * r
                            continue
                        chance += (
                            q * share * r
                            * (found if isinstance(found, float) else s.value(found))
                        )  # fmt: skip
                        rows.append((q * share * r, found))
            if best is None or luck_gains(chance, best[0]):
                best = (chance, back, rows)
        return best[2], best[1]

    def _escape(self, h: int, luck: int) -> list[tuple[float, Any]]:
        """The escape's wound, Luck tested on it where the ruleset allows and it helps (as
        :meth:`dedale.rules.odds_exits_solver.ExitSolver._escape` values it)."""
        s = self.solver
        fight = s.fight
        options = [[(1.0, luck, fight.escape_damage)]]
        if fight.escape_luck:
            options = s._luck_options(fight.escape_damage, luck, fight.luck_wounded,
                                      fight.damage_to_hero)  # fmt: skip
        option = options[luck_pick([sum(q for q, _, d in option if h > d) for option in options])]
        return [(q, _end(h - d, lk, "escaped") if h > d else 0.0) for q, lk, d in option]


def _end(h: int, luck: int, way: str, at: int = -1) -> End:
    end = End(1.0)
    end.key = (h, luck, way, at)
    return end


def _order(state: tuple, own: int) -> tuple:
    index, h, e, luck, k, won, hit, counters, _shift = state
    return (index, -luck, -h, -e, -sum(counters[own:]), k, hit, won)
