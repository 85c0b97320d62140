"""Helpers for the rules core tests."""

from __future__ import annotations

import pytest
from dedale.rules import load_ruleset


@pytest.fixture(scope="session")
def rulesets():
    """The five built-in rulesets, loaded once."""
    return {
        name: load_ruleset(name) for name in ("df-classic", "df24", "df48.5", "reliques", "d20")
    }
