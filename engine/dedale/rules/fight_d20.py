"""d20 fights (procedure ``d20``): attack rolls against armour class (in progress)."""

from __future__ import annotations

from dedale.errors import GameError


def d20_fight(ruleset, character, rng, spec, emit):
    raise GameError("d20 fights are not available yet")
    yield  # pragma: no cover
