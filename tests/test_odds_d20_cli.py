"""``dedale odds`` on d20 fights (commands/odds_d20): the exact figures of rules/odds_d20 as
JSON with end states, and a usage error naming what is missing instead of a guess."""

from __future__ import annotations

import json

import pytest
from dedale.cli import main
from dedale.rules import Character, EnemySpec, FightSpec, load_ruleset
from dedale.rules.odds_d20 import d20_odds

HERO = ["--rules", "d20", "--stat", "FOR=14", "--stat", "DEX=12", "--stat", "ACTION=3",
        "--stat", "HP=20", "--item", "sword", "--item", "leather armour"]  # fmt: skip


def _run(capsys, *extra: str):
    code = main(["odds", "--lang", "en", *HERO, *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _expected(spec: FightSpec, target: str = "best"):
    ruleset = load_ruleset("d20")
    stats = {stat.id: 0 for stat in ruleset.stats}
    stats.update({"FOR": 14, "DEX": 12, "ACTION": 3, "HP": 20})
    hero = Character(
        stats=dict(stats), initial=dict(stats), items={"sword": 1, "leather armour": 1}
    )
    return d20_odds(ruleset, hero, spec, target=target)


def test_a_duel_as_json_with_end_states(capsys):
    code, out, _ = _run(capsys, "--foe", "Guard AC 13 attack +3 damage 1d6 RD 1 HP 10", "--json")
    assert code == 0
    data = json.loads(out)
    expected = _expected(FightSpec((EnemySpec("Guard", {"AC": 13, "attack": 3, "RD": 1,
                                                        "HP": 10}, weapon="1d6"),)))  # fmt: skip
    assert data["procedure"] == "d20" and data["mode"] == "sequence"
    assert data["win_probability"] == pytest.approx(expected.win_probability, abs=1e-12)
    ends = {row["hp"]: row["probability"] for row in data["end_states"]}
    assert ends == pytest.approx(expected.end_states, abs=1e-12)
    assert sum(ends.values()) == pytest.approx(1.0)


def test_two_enemies_at_once_with_the_best_target_and_an_escape(capsys):
    foes = ["--foe", "RAT AC 11 attack +1 damage 1d4 HP 4", "--foe", "RAT AC 11 attack +1 "
            "damage 1d4 HP 5"]  # fmt: skip
    best = json.loads(_run(capsys, *foes, "--mode", "best", "--json")[1])
    order = json.loads(_run(capsys, *foes, "--mode", "order", "--json")[1])
    assert best["alive_probability"] >= order["alive_probability"] - 1e-12
    code, out, _ = _run(capsys, "--foe", "KNIGHT AC 14 attack +4 damage 1d8 RD 3 HP 12",
                        "--escape-after", "2", "--survive", "6")  # fmt: skip
    assert code == 0
    assert "Chance to leave the fight alive" in out and "escape" in out


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--foe", "Guard AC 13 HP 5"], None),  # the hero alone is fine: this one works
        (["--foe", "Guard AC 13 attack 2"], "HP"),  # the enemy's health is missing
        (["--foe", "Guard AC 13 attack two HP 4"], "needs a number"),
        ([], "--foe"),
        (["--foe", "Guard HP 4", "--hero", "10", "10"], "--stat"),
        (["--foe", "Guard HP 4", "--item", "lightsaber"], "lightsaber"),
    ],
)
def test_ambiguous_or_malformed_calls_are_usage_errors(capsys, extra, said):
    code, _, err = _run(capsys, *extra)
    if said is None:
        assert code == 0
        return
    assert code == 2 and said in err


def test_a_missing_hero_stat_is_named_never_guessed(capsys):
    code = main(
        ["odds", "--lang", "en", "--rules", "d20", "--stat", "FOR=14", "--foe", "Guard AC 3 HP 3"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "DEX, ACTION, HP" in err


def test_an_ff_call_without_hero_or_enemy_says_what_is_missing(capsys):
    code = main(["odds", "--lang", "en", "--rules", "df-classic", "--hero", "10", "10"])
    assert code == 2 and "--enemy SKILL STAMINA" in capsys.readouterr().err


def test_win_assaults_and_first_won_are_exact_ways_out(capsys):
    """``--win-assaults 2`` and ``--first-won``: the acting DP's chance to leave alive, at
    least the plain win (every win is a way out) and equal to the rules core's figure."""
    from dedale.rules.odds_d20_acting import ActingPlan, d20_acting_odds

    foe = ["--foe", "TROLL AC 12 attack +4 damage 1d8 HP 22"]
    plain = json.loads(_run(capsys, *foe, "--json")[1])
    spec = FightSpec((EnemySpec("TROLL", {"AC": 12, "attack": 4, "HP": 22}, weapon="1d8"),))
    ruleset = load_ruleset("d20")
    stats = {stat.id: 0 for stat in ruleset.stats}
    stats.update({"FOR": 14, "DEX": 12, "ACTION": 3, "HP": 20})
    hero = Character(stats=stats, initial=dict(stats), items={"sword": 1, "leather armour": 1})
    for extra, plan in (
        (["--win-assaults", "2"], ActingPlan(win_assaults=2)),
        (["--first-won"], ActingPlan(first_won=True)),
    ):
        code, out, _ = _run(capsys, *foe, *extra, "--json")
        assert code == 0
        alive = json.loads(out)["alive_probability"]
        assert alive >= plain["win_probability"] - 1e-12
        expected = d20_acting_odds(ruleset, hero, spec, plan).alive_probability
        assert alive == pytest.approx(expected, abs=1e-12)
    code, out, _ = _run(capsys, *foe, "--win-assaults", "2")
    assert code == 0 and "Chance to leave the fight alive" in out
    code, _, err = _run(capsys, *foe, "--win-assaults", "0")
    assert code == 2 and "--win-assaults" in err
