"""Exact odds of an FF-family fight with exits and per-enemy rules (issues 13.2, 14.2).

The chance that the hero leaves the fight alive by any way the paragraph gives: winning,
surviving an assault limit ("not won after N assaults -> X", "survive N assaults"), "after N
assaults won", "when your STAMINA falls to N", an exit on a condition, "first assault won",
escape (taken when it is the better choice), with per-enemy damage each way, attack
modifiers, and events on an assault (counters the exits read, the enemy's SKILL, a wound
roll such as a shield's). It follows the rules core's fight loop step by step — the same
order as :func:`dedale.rules.fight_opposed.opposed_fight` with the book's hooks
(:mod:`dedale.game.fight_hooks`) — over explicit states (hero STAMINA and Luck, enemy and its
STAMINA, assault number while it matters, assaults won, first hit, counters, SKILL shift),
memoised; a state that only a tie leaves unchanged is solved exactly (divided by 1 - P(tie)).
Luck is either never tested or tested when it raises the chance (a maximum at each wound).

The plan is data (:class:`ExitPlan`): conditions come as callables over the counters and
the hero's health, so this module knows nothing of paragraphs.

The parts: the plan (:mod:`dedale.rules.odds_exits_plan`), one assault's outcomes from the
dice (:mod:`dedale.rules.odds_exits_dice`), the states and moves
(:mod:`dedale.rules.odds_exits_solver`) and the hooks after an assault
(:mod:`dedale.rules.odds_exits_hooks`). This module is the entry point: :func:`exit_odds`
and the plan's names.
"""

from __future__ import annotations

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.odds_exits_dice import assault_outcomes
from dedale.rules.odds_exits_plan import (
    MAX_STATES,
    Condition,
    Damage,
    Event,
    ExitOddsTooLarge,
    ExitPlan,
    changed,
)
from dedale.rules.odds_exits_solver import ExitSolver
from dedale.rules.odds_inputs import check_size
from dedale.rules.ruleset import Ruleset

__all__ = [
    "MAX_STATES", "Condition", "Damage", "Event", "ExitOddsTooLarge", "ExitPlan", "ExitSolver",
    "assault_outcomes", "changed", "exit_odds",
]  # fmt: skip


def exit_odds(
    ruleset: Ruleset,
    hero_skill: int,
    hero_stamina: int,
    plan: ExitPlan,
    *,
    luck: int | None = None,
    luck_policy: str = "none",
    abilities: tuple = (),
    armour: bool = False,
) -> float:
    """The exact chance that the hero leaves the fight alive (see the module docstring)."""
    if not plan.enemies:
        raise GameError(tr("a fight needs at least one enemy"))
    if any(stamina <= 0 for _, stamina, _ in plan.enemies):
        raise GameError(tr("every enemy needs at least 1 STAMINA"))
    check_size(max(0, luck or 0), hero_stamina, plan.enemies)  # the plain DP's bound too
    return ExitSolver(ruleset, hero_skill, plan, luck_policy, abilities, armour).solve(
        hero_stamina, luck or 0
    )
