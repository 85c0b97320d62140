"""Two fights whose enemies differ only in stats written as dice are two fights for the
validator's caches (dedale.validator.simulate._lineup): a d20 goblin with 1d4 HP and one
with 8d6 HP got the same rows (the second read the first's), and so would two reliques
enemies of FORCE 1d2 and FORCE 1d6+2."""

from __future__ import annotations

import pytest
from dedale.validator import validate_path

BOOK = """---
title: Dice
language: en
ruleset: {ruleset}
---
§ 1
Two ways.
-> 2 Left
-> 3 Right

§ 2
> fight
> enemy {weak}
> win -> 4

§ 3
> fight
> enemy {strong}
> win -> 4

§ 4
> victory
"""

CASES = {
    "d20": ("GOBLIN AC 12 attack +2 damage 1d6 HP 1d4", "GOBLIN AC 12 attack +2 damage 1d6 HP 8d6"),
    "reliques": (
        "TROLL STRENGTH 1d2 AGILITY 2 PERCEPTION 2 CONSTITUTION 2 weapon 2",
        "TROLL STRENGTH 1d6+2 AGILITY 2 PERCEPTION 2 CONSTITUTION 2 weapon 2",
    ),
}


@pytest.mark.parametrize("ruleset", list(CASES))
def test_enemies_differing_only_in_dice_get_their_own_odds(tmp_path, ruleset):
    weak, strong = CASES[ruleset]
    path = tmp_path / "book.dd"
    path.write_text(BOOK.format(ruleset=ruleset, weak=weak, strong=strong), encoding="utf-8")
    first, second = validate_path(path, runs=0).fights
    assert first.win("median", "none") > second.win("median", "none") + 0.1
