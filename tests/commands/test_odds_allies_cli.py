"""``dedale odds --ally SKILL STAMINA --struck MODE``: the exact odds of a fight with allies
(rules/odds_allies.py), with ways out (rules/odds_allies_exits.py), its JSON and text; what
it cannot compute is a usage error."""

from __future__ import annotations

import json

import pytest
from dedale.cli import main
from dedale.rules import fight_odds, load_ruleset
from dedale.rules.odds_allies import ally_odds


def _json(capsys, *args: str) -> dict:
    assert main(["odds", "--lang", "en", "--hero", "9", "18", "--luck", "9", "--enemy", "9",
                 "12", *args, "--json"]) == 0  # fmt: skip
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("struck", ["hero", "ally", "random"])
def test_the_json_gives_the_exact_chance_with_allies(capsys, struck):
    found = _json(capsys, "--ally", "8", "10", "--ally", "7", "4", "--struck", struck,
                  "--luck-policy", "best")  # fmt: skip
    expected = ally_odds(load_ruleset("df-classic"), 9, 18, [(9, 12)], [(8, 10), (7, 4)],
                         struck=struck, luck=9, luck_policy="best")  # fmt: skip
    assert found["win_probability"] == pytest.approx(expected.win_probability, abs=1e-12)
    assert found["allies"] == [[8, 10], [7, 4]] and found["struck"] == struck
    assert sum(row["probability"] for row in found["end_states"]) == pytest.approx(1.0)
    alone = fight_odds(load_ruleset("df-classic"), 9, 18, [(9, 12)], luck=9, luck_policy="best")
    assert found["win_probability"] > alone.win_probability


def test_the_text_names_the_allies(capsys):
    assert main(["odds", "--lang", "en", "--hero", "9", "18", "--enemy", "9", "12", "--ally",
                 "8", "10", "--struck", "ally"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "Allies: 8 10" in out and "ally" in out and "Win probability" in out


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--struck", "ally"], "--ally"),
        (["--ally", "8", "-1"], "STAMINA"),
    ],
)
def test_what_cannot_be_computed_is_a_usage_error(capsys, extra, words):
    assert main(["odds", "--lang", "en", "--hero", "9", "18", "--enemy", "9", "12", *extra]) == 2
    assert words in capsys.readouterr().err


@pytest.mark.parametrize("struck", ["hero", "ally", "random"])
def test_ways_out_with_allies_are_exact(capsys, struck):
    """``--survive`` / ``--win-assaults`` with ``--ally``: rules/odds_allies_exits.py."""
    from dedale.rules.odds_allies_exits import ally_exit_odds
    from dedale.rules.odds_exits import ExitPlan

    found = _json(capsys, "--ally", "8", "6", "--struck", struck, "--survive", "4",
                  "--win-assaults", "3", "--luck-policy", "best")  # fmt: skip
    plan = ExitPlan(enemies=((9, 12, False),), limit=4, win_assaults=3)
    expected = ally_exit_odds(load_ruleset("df-classic"), 9, 18, plan, [(8, 6)], struck=struck,
                              luck=9, luck_policy="best")  # fmt: skip
    assert found["way_out_probability"] == pytest.approx(expected, abs=1e-12)
    assert found["win_probability"] < found["way_out_probability"] <= 1.0


@pytest.mark.parametrize("mode", ["order", "best"])
def test_allies_at_once_are_exact(capsys, mode):
    """``--mode order|best`` with ``--ally``: rules/odds_allies_group.py (the chance only:
    no expected assaults nor distributions)."""
    from dedale.rules.odds_allies_group import ally_group_odds
    from dedale.rules.odds_exits import ExitPlan

    found = _json(capsys, "--enemy", "7", "5", "--ally", "8", "6", "--struck", "random",
                  "--mode", mode, "--survive", "3")  # fmt: skip
    plan = ExitPlan(enemies=((9, 12, False), (7, 5, False)))
    ruleset = load_ruleset("df-classic")
    win = ally_group_odds(ruleset, 9, 18, plan, [(8, 6)], struck="random", luck=9, target=mode)
    assert found["win_probability"] == pytest.approx(win, abs=1e-12)
    assert found["expected_assaults"] is None and found["end_states"] == []
    out = ally_group_odds(ruleset, 9, 18, ExitPlan(enemies=plan.enemies, limit=3), [(8, 6)],
                          struck="random", luck=9, target=mode)  # fmt: skip
    assert found["way_out_probability"] == pytest.approx(out, abs=1e-12)
    assert win < out
