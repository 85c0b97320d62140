"""``fight_odds(win_only=True)``: the same win probability from shared value tables."""

from __future__ import annotations

import math

import pytest
from dedale.errors import GameError
from dedale.rules import OddsTable, fight_odds, odds_shared

SETTINGS = [
    ("df-classic", None, dict(luck_policy="none")),
    ("df-classic", None, dict(luck_policy="best")),
    ("df-classic", None, dict(luck_policy="best", mode="as_one")),
    ("df-classic", None, dict(luck_policy="best", attack_bonus=-1, enemy_damage=3)),
    ("df24", None, dict(luck_policy="best")),
    ("df48.5", "Baroudeur", dict(luck_policy="best")),
    ("df48.5", "Mercenaire", dict(luck_policy="best")),  # first-hit bonus
    ("df48.5", "Scientifique", dict(luck_policy="none", armour=True)),
]
# Enemy line-ups in an order that makes the shared tables grow and shrink.
LINE_UPS = [[(7, 5)], [(7, 11)], [(7, 8)], [(7, 3), (6, 4)], [(7, 9), (6, 4)], [(9, 6)]]
HEROES = [(9, 14, 7), (9, 20, 10), (9, 18, 12), (9, 24, 9)]


@pytest.mark.parametrize(("name", "klass", "options"), SETTINGS)
def test_win_only_equals_the_full_computation(rulesets, name, klass, options):
    odds_shared._TABLES.clear()
    ruleset = rulesets[name]
    for enemies in LINE_UPS:
        for skill, stamina, luck in HEROES:
            args = (ruleset, skill, stamina, enemies)
            full = fight_odds(*args, luck=luck, class_name=klass, **options)
            quick = fight_odds(*args, luck=luck, class_name=klass, win_only=True, **options)
            assert quick.win_probability == full.win_probability
            assert math.isnan(quick.expected_assaults)
            assert quick.stamina_distribution == {} and quick.luck_distribution == {}


def test_fights_sharing_an_enemy_skill_share_one_table(rulesets):
    odds_shared._TABLES.clear()
    ruleset = rulesets["df-classic"]
    for stamina in (12, 4, 9, 7):
        fight_odds(ruleset, 10, 20, [(8, stamina)], luck=9, luck_policy="best", win_only=True)
    assert len(odds_shared._TABLES) == 1
    (_, table), *_ = odds_shared._TABLES.values()
    assert table.enemies[0][1] == 12


def test_win_only_keeps_the_errors(rulesets):
    ruleset = rulesets["df-classic"]
    with pytest.raises(GameError):
        fight_odds(ruleset, 10, 20, [(8, 0)], win_only=True)
    with pytest.raises(GameError):
        fight_odds(ruleset, 10, 0, [(8, 6)], win_only=True)
    with pytest.raises(GameError):
        fight_odds(ruleset, 10, 20, [(8, 6)], mode="all", win_only=True)  # no such mode
    with pytest.raises(GameError):
        fight_odds(ruleset, 10, 20, [(8, 6)], luck_policy="lucky", win_only=True)
    with pytest.raises(GameError):
        fight_odds(rulesets["d20"], 10, 20, [(8, 6)], win_only=True)


def test_table_win_probability_reads_lower_enemy_stamina(rulesets):
    table = OddsTable(rulesets["df-classic"], 10, [(8, 10)], luck_policy="best")
    for stamina in (1, 5, 10):
        fresh = fight_odds(
            rulesets["df-classic"], 10, 20, [(8, stamina)], luck=9, luck_policy="best"
        )
        assert table.win_probability(20, 9, stamina) == fresh.win_probability
    assert table.win_probability(20, 9) == table.solve(20, 9).win_probability
    with pytest.raises(GameError):
        table.win_probability(20, 9, 11)
