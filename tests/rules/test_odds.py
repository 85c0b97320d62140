"""Exact odds: cross-checked against a seeded Monte Carlo of the real run_fight code."""

from __future__ import annotations

import json
import math

import pytest
from dedale.cli import main
from dedale.rules import (
    AlwaysNo,
    BestLuckPolicy,
    EnemySpec,
    FightSpec,
    OddsTable,
    RandomSource,
    drive,
    fight_odds,
    run_fight,
)
from rules_helpers import ff_hero

FIGHTS = 100_000
QUICK = 30_000  # the best-Luck-policy simulations (slower decider), within the time budget


def simulate(ruleset, hero, spec, decider, n=FIGHTS, seed=7):
    """Win rate of ``n`` seeded fights; the hero is reset to his first fight each time."""
    rng = RandomSource(seed)
    start = dict(hero.stats)
    stats = hero.stats
    wins = 0
    for _ in range(n):
        stats.update(start)
        hero.fights_with_armour = 0
        hero.armour_wear.clear()
        wins += drive(run_fight(ruleset, hero, rng, spec, emit=False), decider).won
    return wins / n


def assert_agrees(exact, estimate, n=FIGHTS):
    error = math.sqrt(exact * (1 - exact) / n)
    assert abs(exact - estimate) <= 3 * error, (exact, estimate, error)


# Balanced fights (win probability far from 0 and 1).
CASES = [
    ("df-classic", None, (8, 10, 9), (8, 8), FIGHTS),
    ("df24", None, (4, 6, 8), (12, 12), FIGHTS),
    ("df48.5", "Baroudeur", (8, 10, 9), (9, 8), FIGHTS),
    ("df48.5", "Mercenaire", (8, 10, 9), (9, 7), FIGHTS),  # first-hit bonus: 3 hits, not 4
    ("df48.5", "Scientifique", (8, 10, 9), (10, 8), FIGHTS),
]


@pytest.mark.parametrize(("name", "klass", "hero", "enemy", "n"), CASES)
def test_odds_match_simulation(rulesets, name, klass, hero, enemy, n):
    ruleset = rulesets[name]
    skill, stamina, luck = hero
    exact = fight_odds(ruleset, skill, stamina, [enemy], luck=luck, class_name=klass)
    assert 0.2 < exact.win_probability < 0.8
    kit = dict.fromkeys(ruleset.classes[klass].kit, 1) if klass else {}
    hero = ff_hero(skill, stamina, luck, class_name=klass, items=kit)
    spec = FightSpec((EnemySpec("E", {"SKILL": enemy[0], "STAMINA": enemy[1]}),))
    estimate = simulate(ruleset, hero, spec, AlwaysNo(), n=n)
    assert_agrees(exact.win_probability, estimate, n)


@pytest.mark.parametrize(
    ("name", "hero", "enemy"), [("df-classic", (8, 14, 9), (9, 10)), ("df24", (4, 6, 9), (12, 20))]
)
def test_best_luck_policy_matches_simulation(rulesets, name, hero, enemy):
    ruleset = rulesets[name]
    skill, stamina, luck = hero
    table = OddsTable(ruleset, skill, [enemy], luck_policy="best")
    exact = table.solve(stamina, luck).win_probability
    assert 0.2 < exact < 0.8
    policy = BestLuckPolicy(table, stamina, luck)
    spec = FightSpec((EnemySpec("E", {"SKILL": enemy[0], "STAMINA": enemy[1]}),))
    estimate = simulate(ruleset, ff_hero(skill, stamina, luck), spec, policy, n=QUICK)
    assert_agrees(exact, estimate, QUICK)


def test_best_luck_beats_no_luck_and_distributions_sum_to_one(rulesets):
    ruleset = rulesets["df-classic"]
    none = fight_odds(ruleset, 8, 16, [(10, 12)], luck=9)
    best = fight_odds(ruleset, 8, 16, [(10, 12)], luck=9, luck_policy="best")
    assert best.win_probability > none.win_probability
    assert math.isclose(sum(best.stamina_distribution.values()), 1.0)
    assert math.isclose(sum(best.luck_distribution.values()), 1.0)
    assert max(best.luck_distribution) <= 9


def test_sequence_is_product_like_and_as_one(rulesets):
    ruleset = rulesets["df-classic"]
    seq = fight_odds(ruleset, 12, 24, [(6, 4), (6, 4)])
    single = fight_odds(ruleset, 12, 24, [(6, 4)])
    assert seq.win_probability < single.win_probability
    assert fight_odds(ruleset, 12, 24, [(6, 4), (5, 4)], mode="as_one").win_probability == (
        fight_odds(ruleset, 12, 24, [(6, 8)]).win_probability
    )


def test_trivial_fight_expected_assaults(rulesets):
    # SKILL 30 vs 0: every assault won, enemy STAMINA 4 -> exactly 2 assaults.
    result = fight_odds(rulesets["df-classic"], 30, 10, [(0, 4)])
    assert result.win_probability == 1.0 and result.expected_assaults == 2.0
    assert result.stamina_distribution == {10: 1.0}


def test_cli_text_and_json(capsys):
    assert (
        main(
            [
                "odds",
                "--lang",
                "en",
                "--rules",
                "df-classic",
                "--hero",
                "10",
                "20",
                "--enemy",
                "8",
                "10",
            ]
        )
        == 0
    )
    assert "Win probability: 99.94 %" in capsys.readouterr().out
    args = [
        "odds",
        "--lang",
        "en",
        "--rules",
        "df48.5",
        "--class",
        "Mercenaire",
        "--hero",
        "9",
        "20",
    ]
    assert main([*args, "--enemy", "9", "12", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"win_probability", "expected_assaults", "stamina_distribution"} <= set(data)


def test_cli_ways_out(capsys):
    # a survive-3-assaults fight: never won, always left alive (issue 14.2)
    base = [
        "odds",
        "--lang",
        "en",
        "--rules",
        "df-classic",
        "--hero",
        "9",
        "14",
        "--enemy",
        "12",
        "30",
    ]
    assert main([*base, "--survive", "3"]) == 0
    out = capsys.readouterr().out
    assert "Win probability: 0.00 %" in out
    assert "Chance to leave the fight alive (any way out): 100.00 %" in out
    assert main([*base, "--survive", "8", "--json"]) == 0
    assert 0.5 < json.loads(capsys.readouterr().out)["way_out_probability"] < 0.7
    assert main([*base, "--survive", "0"]) == 2


@pytest.mark.parametrize(
    "args",
    [
        ["--rules", "nope", "--hero", "10", "20", "--enemy", "8", "10"],
        ["--rules", "df48.5", "--class", "Bob", "--hero", "10", "20", "--enemy", "8", "10"],
        ["--hero", "10", "0", "--enemy", "8", "10"],
        ["--hero", "10", "20", "--enemy", "8", "10", "--luck-policy", "best"],
        ["--rules", "d20", "--hero", "10", "20", "--enemy", "8", "10"],
    ],
)
def test_cli_bad_arguments_exit_2(args, capsys):
    assert main(["odds", "--lang", "en", *args]) == 2
    assert "dedale odds:" in capsys.readouterr().err


def test_hero_and_enemies_as_mappings(rulesets):
    ruleset = rulesets["df-classic"]
    by_values = fight_odds(ruleset, 10, 20, [(8, 10)], luck=9, luck_policy="best")
    by_maps = fight_odds(
        ruleset,
        hero={"SKILL": 10, "STAMINA": 20, "LUCK": 9},
        enemies=[{"SKILL": 8, "STAMINA": 10}],
        luck_policy="best",
    )
    assert by_maps == by_values


def test_cli_with_an_author_ruleset_file(tmp_path, monkeypatch, capsys):
    (tmp_path / "mine.yaml").write_text(
        "name: mine\nextends: df-classic\nfight:\n  damage: {to_enemy: 10}\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    args = [
        "odds",
        "--lang",
        "en",
        "--rules",
        "mine.yaml",
        "--hero",
        "30",
        "10",
        "--enemy",
        "0",
        "10",
        "--json",
    ]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["win_probability"] == 1.0 and data["expected_assaults"] == 1.0


def test_cli_ruleset_file_anywhere(tmp_path, capsys):
    folder = tmp_path / "variants"
    folder.mkdir()
    (folder / "base.yaml").write_text("name: base\nextends: df-classic\n", encoding="utf-8")
    (folder / "mine.yaml").write_text("name: mine\nextends: base.yaml\n", encoding="utf-8")
    args = ["odds", "--lang", "en", "--rules", str(folder / "mine.yaml"), "--hero", "10", "20"]
    assert main([*args, "--enemy", "8", "10"]) == 0
    assert "Ruleset: mine" in capsys.readouterr().out
    assert main(["odds", "--lang", "en", "--rules", str(folder / "nope.yaml"), "--hero", "1", "1",
                 "--enemy", "1", "1"]) == 2  # fmt: skip
