"""Heroism points that cancel a loss (reliques Courage): one mechanism for fights and for
a paragraph's ``lose N HEALTH``.

The ruleset's ``heroism.ignore_loss`` names the counter; the player may spend one point to
cancel a loss of the health stat that leaves health at 0 or above (a loss to exactly 0
included), never one that takes it below 0.
"""

from __future__ import annotations

from dedale.events import YesNoPrompt
from dedale.rules.character import Character
from dedale.rules.decisions import RulesGen
from dedale.rules.ruleset import Ruleset


def may_ignore_loss(ruleset: Ruleset, character: Character, loss: int, health: int) -> bool:
    """Whether a heroism point may cancel ``loss`` from a health of ``health`` now."""
    counter = ruleset.heroism.get("ignore_loss")
    return bool(counter) and character.counters.get(counter, 0) > 0 and 0 < loss <= health


def offer_ignore_loss(
    ruleset: Ruleset, character: Character, stat: str, loss: int, health: int | None = None
) -> RulesGen[bool]:
    """Ask the player whether to spend a point to cancel ``loss`` of ``stat``; True when
    spent. Only the ruleset's health stat (``fight.health``) qualifies; ``health`` is the
    hero's current health (default: the character's value of ``stat``)."""
    counter = ruleset.heroism.get("ignore_loss")
    if not counter or stat != getattr(ruleset.fight, "health", None):
        return False
    current = character.stats.get(stat, 0) if health is None else health
    if not may_ignore_loss(ruleset, character, loss, current):
        return False
    params = (("use", "ignore_loss"), ("counter", counter), ("damage", loss))
    if not (yield YesNoPrompt(kind="heroism", params=params)):
        return False
    character.change_counter(counter, -1)
    return True
