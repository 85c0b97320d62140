"""Start-up cost: loading rulesets and computing odds do not import the interpreter's
events, the fights' tests or the deciders (``dedale validate --runs 0`` needs none)."""

from __future__ import annotations

import subprocess
import sys

import dedale.rules as rules

CODE = """
import sys
from dedale.rules import fight_odds, load_ruleset, parse_dice
ruleset = load_ruleset("df-classic")
fight_odds(ruleset, 10, 20, [(8, 10)], luck=9, luck_policy="best", win_only=True)
parse_dice("2d6+3")
print(" ".join(sorted(m for m in sys.modules if m.startswith("dedale."))))
"""


def test_odds_and_rulesets_load_without_events_or_deciders():
    done = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, check=True, timeout=60
    )
    loaded = set(done.stdout.split())
    assert "dedale.rules.odds" in loaded
    assert not loaded & {"dedale.events", "dedale.rules.decisions", "dedale.rules.checks"}


def test_every_public_name_resolves_lazily_to_its_module():
    for name in rules.__all__:
        value = getattr(rules, name)
        assert getattr(value, "__module__", "").startswith("dedale.rules"), name
    assert set(rules.__all__) <= set(dir(rules))
