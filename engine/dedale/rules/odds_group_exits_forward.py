"""The forward pass of the exact odds of a fight at once with exits: how the hero leaves it.

:mod:`dedale.rules.odds_group_exits` gives the chance to leave the fight alive; the path of
fights and the solver need more: by which way, with which STAMINA and LUCK, jointly. This
module pushes the probability mass from the start state through the solver's own moves (its
:meth:`~dedale.rules.odds_group_exits.GroupExitSolver.choose`: the target, Luck and escape
choices its values take). The value pass memoises each state once all the states it leads
to are known, so the memo's order, reversed, is an order every move follows: each state is
pushed once, with all its mass (an assault that changes nothing is already folded in).

The fights the array fill takes (:func:`array_takes`) are pushed through the fill's own
choices instead (:mod:`dedale.rules.odds_group_exits_array_forward`: the same ends, cell
blocks at once, within the fill's larger budget).

The result has the shape of :class:`dedale.rules.odds_exits_forward.ExitOutcomes` (``won``,
``limit``, ``lost``), with ``escaped`` beside them and ``ways``: the same mass by the exit
that ended the fight (``won``, ``first_won``, ``assaults_won``, ``limit``, ``threshold``,
``exit``, ``event``, ``escaped``). The total mass out alive equals
:func:`~dedale.rules.odds_group_exits.group_exit_odds` (the tests match it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_exits_forward import ExitOutcomes
from dedale.rules.odds_group_exits import (
    LUCK_WORK,
    SECONDS,
    WON_WAYS,
    GroupExitSolver,
)
from dedale.rules.ruleset import Ruleset


def array_takes(solver: GroupExitSolver, stamina: int, luck: int | None) -> bool:
    """Whether the array fill's forward pass gives this fight's ends (the best Luck, some
    LUCK, above the threshold, a fight :func:`~dedale.rules.odds_group_exits_array.eligible`
    takes), as :meth:`GroupExitSolver.solve` routes its values."""
    if not (solver.use_luck and luck and stamina > max(0, solver.plan.threshold or 0)):
        return False
    from dedale.rules.odds_group_exits_array import eligible

    return eligible(solver)


@dataclass(slots=True)
class GroupExitOutcomes(ExitOutcomes):
    """:class:`ExitOutcomes` with ``escaped`` and ``ways`` (see the module docstring)."""

    escaped: dict[tuple[int, int], float] = field(default_factory=dict)
    ways: dict[str, dict[tuple[int, int], float]] = field(default_factory=dict)
    value: float = 0.0  # the value pass's chance to leave alive (the same, to rounding)

    @property
    def alive(self) -> float:
        """The chance to leave the fight alive (won, at an exit, or escaped)."""
        return sum(self.won.values()) + sum(self.limit.values()) + sum(self.escaped.values())


def group_exit_outcomes(
    ruleset: Ruleset,
    hero_skill: int,
    hero_stamina: int,
    plan: ExitPlan,
    *,
    luck: int | None = None,
    luck_policy: str = "none",
    abilities: tuple = (),
    armour: bool = False,
    target: str = "best",
    seconds: float = SECONDS,
    luck_work: int = LUCK_WORK,
    array: bool = True,
) -> GroupExitOutcomes:
    """The joint outcomes of the fight (see the module docstring); the same budget as
    :func:`~dedale.rules.odds_group_exits.group_exit_odds` (its error past it). ``array``
    False: the state-by-state pass even where the array fill applies (the tests' reference)."""
    solver = GroupExitSolver(ruleset, hero_skill, plan, luck_policy, abilities, armour, target)
    solver.seconds, solver.luck_work = seconds, luck_work
    if array and array_takes(solver, hero_stamina, luck):  # the best Luck by the array fill
        from dedale.rules.odds_group_exits_array_forward import array_outcomes

        return array_outcomes(solver, hero_stamina, luck)
    solver.prune = False  # every state's own moves, to push the mass through
    found = GroupExitOutcomes(value=solver.solve(hero_stamina, luck))
    start = solver.start(hero_stamina, luck)
    pending = {start: 1.0}
    for state in reversed(list(solver.memo)):  # every move goes to a state memoised earlier
        mass = pending.pop(state, 0.0)
        if not mass:
            continue
        found.states += 1
        for share, node in solver.choose(state)[1]:
            flow = mass * share
            if node[0] != "end":
                pending[node] = pending.get(node, 0.0) + flow
                continue
            _, way, h, lk = node
            if way == "lost":
                found.lost += flow
                continue
            key = (h, lk)
            table = found.ways.setdefault(way, {})
            table[key] = table.get(key, 0.0) + flow
            kind = (
                found.won if way in WON_WAYS else found.escaped if way == "escaped"
                else found.limit
            )  # fmt: skip
            kind[key] = kind.get(key, 0.0) + flow
    return found
