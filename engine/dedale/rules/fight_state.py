"""The fight between two assaults, and the hooks a book acts through at that point.

Every fight procedure (opposed, d20, reliques) runs its assaults in one loop; when the
interpreter passes ``hooks`` to :func:`dedale.rules.run_fight`, the loop calls
``hooks.after_assault(state)`` after each assault the fight survives (no side fell), so
allies, statuses, assault tables, thresholds, "after N assaults won", per-enemy events
and exits act inside the one fight — there is no second path that re-runs assaults.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from dedale.rules.decisions import RulesGen


@dataclass(slots=True)
class FightState:
    """What the hooks see of a fight after an assault, and may change.

    ``health`` and ``skills`` are the enemies' (in the fight's order, as fought: one
    entry for ``as one``); a hook that wounds an enemy or lowers its attack writes there
    and the fight goes on with the new values. ``winner`` (``hero``/``enemy``/``tie``),
    ``double`` (the hero's attack roll was a double), ``hero_damage`` (what the hero lost
    in the assault) and ``current`` (the enemy fought) describe the last assault.
    ``quiet_end``: a hook that ended the game itself asks for no FightEnded.
    """

    names: list[str]
    health: list[int]
    skills: list[int] = field(default_factory=list)
    assault: int = 0
    winner: str = "tie"
    double: bool = False
    hero_damage: int = 0
    current: int = 0
    quiet_end: bool = False
    start: list[int] = field(default_factory=list)
    """The enemies' health when the fight began (set from ``health`` if not given)."""

    def __post_init__(self) -> None:
        if not self.start:
            self.start = list(self.health)


class FightHooks(Protocol):
    """What the fight loop calls between assaults (see the module docstring)."""

    def after_assault(self, state: FightState) -> RulesGen[str | None]:
        """Act after an assault; return None to go on, or the fight's outcome
        (``won``/``lost``/``limit``) to end it there."""
        ...

    def enemy_wound(self, state: FightState, damage: int) -> RulesGen[int]:
        """The damage a wound the hero deals does to the current enemy."""
        ...

    def hero_wound(self, state: FightState, damage: int) -> RulesGen[int]:
        """The damage a wound the current enemy deals does to the hero."""
        ...

    def attack_bonus(self, state: FightState) -> int:
        """The hero's attack bonus against the current enemy in this assault."""
        ...


def winner_of(hero_strength: int, enemy_strength: int) -> str:
    """``hero``, ``enemy`` or ``tie`` for two attack strengths."""
    if hero_strength > enemy_strength:
        return "hero"
    return "enemy" if enemy_strength > hero_strength else "tie"


def between_assaults(hooks: FightHooks, state: FightState, fighters, assault: int, hero_loss: int):
    """The hooks' turn after an assault of a fight whose enemies are objects with a
    ``health`` (d20, reliques): their health is shown to the hooks in ``state`` and what
    the hooks change is written back; returns what ``after_assault`` returned."""
    before = sum(state.health)
    state.health[:] = [fighter.health for fighter in fighters]
    state.assault = assault
    state.hero_damage = hero_loss
    if sum(state.health) < before:
        state.winner = "hero"
    else:
        state.winner = "enemy" if hero_loss > 0 else "tie"
    living = [i for i, fighter in enumerate(fighters) if fighter.health > 0]
    state.current = living[0] if living else 0
    stop = yield from hooks.after_assault(state)
    for fighter, health in zip(fighters, state.health, strict=True):
        fighter.health = health
    return stop


# The rules under an enemy, as both the fight (dedale.game.enemy_rules) and its exact odds
# (dedale.rules.odds_exits) apply them: one definition each, so the two cannot differ.


def rebased(damage: int, base: int | None, value: int) -> int:
    """``value`` in place of the base damage, keeping what the fight added to the base (a
    Luck test's shift, a class bonus); without a base (d20, reliques): ``value``."""
    if base is None:
        return value
    return max(0, damage - base + value)


def taken(damage: int, share: str, value: int, base: int | None, health: int) -> int:
    """What a wound does to an enemy with an ``it takes`` rule: ``value`` (rebased),
    ``half`` (rounded up) or ``all`` (at least its health: it falls)."""
    if share == "all":
        return max(damage, health)
    if share == "half":
        return (damage + 1) // 2
    return rebased(damage, base, value)


def happened(on: str, winner: str, double: bool, hero_damage: int) -> bool:
    """Whether an assault event (``it_wins``, ``you_win``, ``double``, ``it_wounds``) took
    place in an assault with this winner (``hero``, ``kill``, ``enemy``, ``tie``)."""
    if on == "it_wins":
        return winner == "enemy"
    if on == "you_win":
        return winner in ("hero", "kill")
    if on == "double":
        return double
    return winner == "enemy" and hero_damage > 0  # it_wounds
