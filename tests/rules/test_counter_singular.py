"""A counter's singular (issue 16's last gaps): "costs 1 Gold piece", not "1 Gold pieces";
French takes the singular for 0 and 1; a ruleset without it keeps its plural name."""

from __future__ import annotations

import pytest
from dedale.rules import load_ruleset


@pytest.mark.parametrize(
    ("amount", "lang", "shown"),
    [
        (1, "en", "Gold piece"),
        (2, "en", "Gold pieces"),
        (0, "en", "Gold pieces"),
        (1, "fr", "Pièce d'or"),
        (0, "fr", "Pièce d'or"),
        (3, "fr", "Pièces d'or"),
    ],
)
def test_one_gold_piece(amount, lang, shown):
    assert load_ruleset("df-classic").counted_name("gold", amount, lang) == shown


def test_a_counter_without_singular_keeps_its_name():
    ruleset = load_ruleset("reliques")
    assert ruleset.counted_name("courage", 1, "fr") == ruleset.display_name("courage", "fr")
