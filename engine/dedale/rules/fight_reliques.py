"""Reliques fights (procedure ``reliques``): initiative and actions by margins (in progress)."""

from __future__ import annotations

from dedale.errors import GameError


def reliques_fight(ruleset, character, rng, spec, emit):
    raise GameError("reliques fights are not available yet")
    yield  # pragma: no cover
