"""Enemies whose stats are dice (issue 11.15): the exact odds mix the odds of every
line-up the dice can give (the interpreter rolls the stats when the fight starts)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from dedale.rules import load_ruleset
from dedale.rules.dice import parse_dice
from dedale.rules.odds import fight_odds
from dedale.validator import validate_path
from dedale.validator.enemy_dice import line_ups, mixed_win

YAML = "title: Dice\nlanguage: en\nruleset: df-classic\nstart: 1\n"


def book(tmp_path: Path, enemy: str) -> Path:
    folder = tmp_path / "book"
    folder.mkdir(parents=True)
    (folder / "book.yaml").write_text(YAML, encoding="utf-8")
    text = f"§ 1\nAn ogre.\n> fight\n> enemy {enemy}\n> win -> 2\n\n§ 2\n> victory\n"
    (folder / "book.dd").write_text(text, encoding="utf-8")
    return folder


def test_dice_stats_give_exact_mixed_odds(tmp_path):
    report = validate_path(book(tmp_path, "OGRE SKILL 2d6 STAMINA 1d6"), runs=0)
    assert report.findings == []
    (fight,) = report.fights
    assert fight.method == "exact"
    median = fight.win("median", "none")
    ruleset = load_ruleset("df-classic")
    hero = {s: v for s, v in next(o for o in fight.odds if o.hero.level == "median").hero.stats}
    expected = 0.0
    for skill, p_skill in parse_dice("2d6").distribution().items():
        for stamina, p_stamina in parse_dice("1d6").distribution().items():
            odds = fight_odds(ruleset, hero["SKILL"], hero["STAMINA"], [(skill, stamina)])
            expected += float(p_skill * p_stamina) * odds.win_probability
    assert median == pytest.approx(expected, abs=1e-9)
    assert 0 < median < 1


def test_a_fixed_stat_and_a_dice_stat_mix(tmp_path):
    fixed = validate_path(book(tmp_path, "OGRE SKILL 7 STAMINA 6"), runs=0).fights[0]
    rolled = validate_path(book(tmp_path / "b", "OGRE SKILL 7 STAMINA 1d6+5"), runs=0).fights[0]
    # STAMINA 6 to 11: never easier than the fixed 6
    assert rolled.win("median", "none") < fixed.win("median", "none")


def test_an_enemy_rolled_with_no_health_is_beaten():
    mixes = dict((line_up, chance) for chance, line_up in line_ups([(7, "1d2-1", False)]))
    assert mixes == {(): Fraction(1, 2), ((7, 1, False),): Fraction(1, 2)}
    assert mixed_win([(7, "1d2-1", False)], lambda line_up: 0.25) == pytest.approx(0.625)


@pytest.mark.parametrize(
    ("enemy", "reason"),
    [
        ("OGRE SKILL 2d6 STAMINA 100d100", "too large for exact odds"),
        (
            "OGRE SKILL 2d6 STAMINA 4d6 > enemy TROLL SKILL 2d6 STAMINA 4d6",
            "more than 500 line-ups",
        ),
    ],
)
def test_dice_too_big_to_mix_are_w032_saying_why(tmp_path, enemy, reason):
    enemy = enemy.replace(" > enemy ", "\n> enemy ")
    report = validate_path(book(tmp_path, enemy), runs=0)
    assert [f.code for f in report.findings] == ["W032"]
    assert reason in str(report.findings[0].message)
