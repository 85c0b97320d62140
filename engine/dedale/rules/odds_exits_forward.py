"""The forward pass of the exact odds with exits: how the hero leaves the fight, jointly.

:mod:`dedale.rules.odds_exits` gives the chance to leave a fight alive; the solver needs
more: by which way (won, or the assault limit reached) and with which STAMINA and LUCK,
jointly — the fight becomes one chance node of the book's graph. This module pushes the
probability mass from the start state through the very states and transitions of
``odds_exits_solver.ExitSolver`` (its assault outcomes, wounds, Luck options, damage rules, attack
modifiers, wound rolls), the Luck decision at each wound being the one its ``value`` takes
("fight-optimal"), ties broken by :func:`dedale.rules.odds.luck_pick` as every fight DP and
the interpreter's :class:`~dedale.rules.odds.BestLuckPolicy` break them: Luck is tested only
when it raises the chance to leave alive by more than ``LUCK_TIE``). The states are
visited in an order every transition follows (enemy, then Luck, STAMINA, enemy STAMINA
decreasing, then the assault number), so each is pushed once, with all its mass; a tie that
leaves a state unchanged is folded in exactly, as the value solver does. The total mass out
alive equals :func:`~dedale.rules.odds_exits.exit_odds` (the tests match it to 1e-9).

Only the exits whose end state is the pre-hook state are followed: a win and an assault
limit. Plans with an escape (the solver plays those in its graph), events, conditional
exits, a threshold, "after N assaults won" or "first assault won" raise
:class:`ExitOddsTooLarge`'s sibling :class:`ForwardUnsupported`.

The pass itself is :class:`AssaultForward`: :mod:`dedale.solve.acting_forward` follows every
way out with it, labelling the ends its own way.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.odds import luck_pick
from dedale.rules.odds_exits_plan import MAX_STATES, ExitPlan, past_states
from dedale.rules.odds_exits_solver import ExitSolver
from dedale.rules.odds_inputs import check_size
from dedale.rules.ruleset import Ruleset


class ForwardUnsupported(GameError):
    """A plan whose exits the forward pass does not follow (the message says which)."""


@dataclass(slots=True)
class ExitOutcomes:
    """``won`` and ``limit``: ``{(STAMINA, LUCK): probability}`` when the hero leaves the
    fight that way (unconditional shares); ``lost``: the chance he dies."""

    won: dict[tuple[int, int], float] = field(default_factory=dict)
    limit: dict[tuple[int, int], float] = field(default_factory=dict)
    lost: float = 0.0
    states: int = 0

    @property
    def alive(self) -> float:
        """The chance to leave the fight alive (won or at the limit)."""
        return sum(self.won.values()) + sum(self.limit.values())


def exit_outcomes(
    ruleset: Ruleset,
    hero_skill: int,
    hero_stamina: int,
    plan: ExitPlan,
    *,
    luck: int | None = None,
    luck_policy: str = "none",
    abilities: tuple = (),
    armour: bool = False,
    kind: type = ExitSolver,
) -> ExitOutcomes:
    """The joint outcomes of the fight (see the module docstring); ``kind``: the solver's
    class (``dedale solve --exact``: its chances in fractions, solve/exact_exits.py)."""
    _check(plan)
    if any(stamina <= 0 for _, stamina, _ in plan.enemies):
        raise GameError(tr("every enemy needs at least 1 STAMINA"))
    check_size(max(0, luck or 0), hero_stamina, plan.enemies)
    solver = kind(ruleset, hero_skill, plan, luck_policy, abilities, armour)
    start = (0, hero_stamina, plan.enemies[0][1], luck or 0, 0, 0, not solver.track_hit,
             tuple(v for _, v in plan.counters), 0)  # fmt: skip
    forward = AssaultForward(solver)
    ends, lost = forward.run(start)
    found = ExitOutcomes(lost=lost, states=forward.states)
    for (way, key), p in ends.items():
        table = found.won if way == "won" else found.limit
        table[key] = p
    return found


def _check(plan: ExitPlan) -> None:
    reason = None
    if not plan.enemies:
        reason = tr("a fight needs at least one enemy")
    elif plan.escape_after is not None:
        reason = tr("an escape")
    elif plan.events or plan.exits or plan.late_exits or plan.table or plan.threshold is not None:
        reason = tr("events or exits on a condition")
    elif plan.win_assaults is not None or plan.first_won:
        reason = tr("an exit on assaults won")
    if reason is not None:
        raise ForwardUnsupported(
            tr("the joint outcomes of this fight are not computed: {reason}", reason=reason)
        )


def _order(state: tuple) -> tuple:
    index, h, e, luck, k, won, hit, _counters, _shift = state
    return (index, -luck, -h, -e, k, hit, won)


LOST = -1
"""The key of the hero's death among a forward pass's ends."""


class AssaultForward:
    """The forward pass over ``ExitSolver``'s states: each state, in an order every
    transition follows, pushes its mass along the assault's outcomes and the chosen Luck
    option to the next states or to an end ``("end", key)`` (``key`` LOST or the way out).
    A subclass says how an assault ends (``_after``), how an assault limit ends
    (``_limit_end``) and what a way out is worth (``_worth``); the Luck option is chosen by
    the one tie rule, :func:`dedale.rules.odds.luck_pick`."""

    unsupported: type[GameError] = ForwardUnsupported
    """What a fight this pass does not follow raises."""

    def __init__(self, solver: ExitSolver) -> None:
        self.solver = solver
        self.judge = solver  # what the Luck decisions value the next states by
        self.states = 0

    def run(self, start: tuple) -> tuple[dict, float]:
        """``(ends, lost)``: the mass of every way out by its key, and the chance to die
        (``self.states``: the states visited)."""
        found: dict[tuple, float] = {}
        lost = 0.0
        states = 0
        pending = {start: 1.0}
        heap = [(_order(start), start)]
        while heap:
            _, state = heapq.heappop(heap)
            mass = pending.pop(state, 0.0)
            if not mass:
                continue
            states += 1
            self.states = states
            if states > MAX_STATES:
                raise past_states()
            for share, nxt in self._moves(state):
                flow = mass * share
                if nxt[0] == "end":
                    if nxt[1] == LOST:
                        lost += flow
                    else:
                        found[nxt[1]] = found.get(nxt[1], 0.0) + flow
                    continue
                if nxt not in pending:
                    heapq.heappush(heap, (_order(nxt), nxt))
                    pending[nxt] = 0.0
                pending[nxt] += flow
        return found, lost

    def _moves(self, state: tuple) -> list[tuple[float, tuple]]:
        """The state's successors with their shares (ties folded), along the value's Luck
        choices; a way out is ``("end", key)``."""
        s = self.solver
        plan = s.plan
        index, h, e, luck, k, won, hit, counters, shift = state
        if plan.limit is not None and k >= plan.limit:
            return [(1.0, ("end", self._limit_end(h, luck, counters)))]
        lead, immune = s._lead(state)
        k2 = min(k + 1, s.k_cap)
        moves: list[tuple[float, tuple]] = []
        stay = 0.0
        for p, winner, double in s.outcomes(lead, immune):
            options = s._after_wounds(state, winner, k2)
            ways = []  # per Luck option: (its chance to leave alive, its rows, what stays)
            for option in options:
                chance, rows, back = 0.0, [], 0.0
                for q, nxt, dealt, wound in option:
                    after = self._after(nxt, winner, double, dealt, wound)
                    if after == state:
                        back += q
                        continue
                    if after[0] == "end":
                        chance += q * self._worth(after[1])
                    else:
                        chance += q * self.judge.value(after)
                    rows.append((q, after))
                if back and len(options) > 1:
                    raise self.unsupported(tr("a Luck test that may change nothing"))
                ways.append((chance, rows, back))
            _, chosen, chosen_stay = ways[luck_pick([chance for chance, _, _ in ways])]
            stay += p * chosen_stay
            moves += [(p * q, nxt) for q, nxt in chosen]
        if stay >= 1.0:
            raise self.unsupported(tr("a fight in which nobody is ever wounded"))
        scale = 1.0 / (1.0 - stay)
        return [(share * scale, nxt) for share, nxt in moves]

    def _worth(self, key) -> float:
        """A way out's worth to the Luck decisions: 0 for a defeat, else 1."""
        return 0.0 if key == LOST else 1.0

    def _limit_end(self, h: int, luck: int, counters: tuple):
        """The key of the way out at the assault limit."""
        return ("limit", (h, luck))

    def _after(self, state: tuple, winner: str, double: bool, dealt: int, wound: int) -> tuple:
        """Once an assault's wounds are applied: the solver's own hooks (no table), an end
        ``("end", LOST)`` or ``("end", ("won", (STAMINA, LUCK)))``, else the next state."""
        ((_, after),) = self.solver._after(state, winner, double, dealt, wound)
        if isinstance(after, float):
            return ("end", LOST if after == 0.0 else ("won", (state[1], state[3])))
        return after
