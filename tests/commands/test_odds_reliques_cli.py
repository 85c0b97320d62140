"""``dedale odds`` on reliques fights: named stats in, the exact odds and end states out;
an ambiguous or incomplete fight is a usage error that names what is missing."""

from __future__ import annotations

import json

import pytest
from dedale.cli import main
from dedale.rules import Character, EnemySpec, FightSpec, load_ruleset
from dedale.rules.odds_reliques import reliques_odds

HERO = "FOR=3,AGL=4,PER=3,CON=3"
FOE = "FOR=3,AGL=2,PER=2,CON=3,arme=2,protection=1"


def _json(capsys, *args: str) -> dict:
    assert main(["odds", "--lang", "en", "--rules", "reliques", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_the_json_gives_the_exact_chance_and_the_end_states(capsys):
    found = _json(capsys, "--stats", HERO, "--items", "sword,cuir", "--foe", FOE,
                  "--courage", "1", "--luck-policy", "best")  # fmt: skip
    ruleset = load_ruleset("reliques")
    stats = {"FOR": 3, "AGL": 4, "PER": 3, "CON": 3, "ESP": 1, "CHA": 1, "HEALTH": 15}
    hero = Character(stats=dict(stats), initial=dict(stats), items={"épée": 1, "cuir": 1},
                     counters={"courage": 1, "volonte": 1, "chance": 1, "gold": 0})  # fmt: skip
    enemy = EnemySpec("foe 1", {"FOR": 3, "AGL": 2, "PER": 2, "CON": 3, "arme": 2,
                                "protection": 1})  # fmt: skip
    expected = reliques_odds(ruleset, hero, FightSpec((enemy,)), luck_policy="best")
    assert found["win_probability"] == pytest.approx(expected.win_probability, abs=1e-12)
    assert found["hero"]["HEALTH"] == 15 and found["protection"] == 2 and found["heroism"] == 1
    assert sum(row["probability"] for row in found["end_states"]) == pytest.approx(1.0)
    assert {row["way"] for row in found["end_states"]} == {"won"}
    assert {row["protection"] for row in found["end_states"]} <= {0, 1, 2}


def test_a_limit_and_an_escape_are_ways_out(capsys):
    found = _json(capsys, "--stats", "FOR=2,AGL=2,PER=2,CON=2", "--foe",
                  "FOR=6,AGL=5,PER=5,CON=6,arme=4", "--escape-after", "0")  # fmt: skip
    assert found["escaped"] == pytest.approx(found["win_probability"]) and found["escaped"] > 0
    survive = _json(capsys, "--stats", HERO, "--foe", FOE, "--survive", "1")
    assert survive["limit"] > 0.5


def test_the_text_output_lists_the_health_after_a_win(capsys):
    assert main(["odds", "--lang", "en", "--rules", "reliques", "--stats", HERO, "--foe", FOE]) == 0
    text = capsys.readouterr().out
    assert "Win probability:" in text and "HEALTH after a win:" in text


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--stats", "FOR=3,AGL=3", "--foe", FOE], "--stats is missing PER, CON"),
        (["--hero", "10", "20", "--enemy", "8", "10"], "needs the hero's --stats"),
        (["--stats", HERO], "at least one --foe"),
        (["--stats", HERO, "--foe", "FOR=3,AGL=2"], "needs PER"),
        (["--stats", HERO, "--foe", FOE, "--foe", FOE, "--mode", "order"], "best target"),
        (["--stats", "FOR=three", "--foe", FOE], "NAME=NUMBER"),
        (["--stats", HERO, "--items", "lance", "--foe", FOE], "unknown item"),
        (["--stats", HERO, "--foe", FOE, "--first-won"], "not a way out"),
    ],
)
def test_an_incomplete_reliques_fight_is_a_usage_error_naming_what_is_missing(capsys, args, says):
    assert main(["odds", "--lang", "en", "--rules", "reliques", *args]) == 2
    assert says in capsys.readouterr().err


def test_ff_fights_still_need_hero_and_enemy(capsys):
    assert main(["odds", "--lang", "en", "--hero", "10", "20"]) == 2
    assert "--enemy SKILL STAMINA" in capsys.readouterr().err


def test_a_foe_stat_as_dice_is_the_exact_mix_of_its_rolls(capsys):
    """FOR=1d6: six line-ups, each 1/6, mixed by hand here from the DP of each."""
    found = _json(capsys, "--stats", HERO, "--items", "dague", "--foe",
                  "FOR=1d6,AGL=3,PER=2,CON=1,arme=1")  # fmt: skip
    ruleset = load_ruleset("reliques")
    stats = {"FOR": 3, "AGL": 4, "PER": 3, "CON": 3, "ESP": 1, "CHA": 1, "HEALTH": 15}
    hero = Character(stats=dict(stats), initial=dict(stats), items={"dague": 1},
                     counters={"courage": 1, "volonte": 1, "chance": 1, "gold": 0})  # fmt: skip
    expected = 0.0
    for strength in range(1, 7):
        enemy = EnemySpec("foe 1", {"FOR": strength, "AGL": 3, "PER": 2, "CON": 1, "arme": 1})
        odds = reliques_odds(ruleset, hero.copy(), FightSpec((enemy,)), luck_policy="none")
        expected += odds.win_probability / 6
    assert found["win_probability"] == pytest.approx(expected, abs=1e-12)
    assert sum(row["probability"] for row in found["end_states"]) == pytest.approx(1.0)


def test_the_threshold_is_a_way_out(capsys):
    found = _json(capsys, "--stats", "FOR=2,AGL=2,PER=2,CON=2", "--foe", FOE,
                  "--threshold", "6")  # fmt: skip
    assert found["limit"] > 0.05 and found["won"] > 0.0
    assert found["win_probability"] == pytest.approx(found["won"] + found["limit"], abs=1e-12)
    assert {row["health"] for row in found["end_states"] if row["way"] == "limit"} <= set(
        range(1, 7)
    )


def test_turns_won_are_a_way_out(capsys):
    plain = _json(capsys, "--stats", "FOR=2,AGL=2,PER=2,CON=2", "--foe", FOE)
    found = _json(capsys, "--stats", "FOR=2,AGL=2,PER=2,CON=2", "--foe", FOE,
                  "--win-assaults", "2")  # fmt: skip
    assert found["won"] > plain["won"] + 0.05
    assert sum(row["probability"] for row in found["end_states"]) == pytest.approx(1.0)
