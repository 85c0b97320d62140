"""``dedale solve``: its JSON, its walkthrough, its languages, its limits and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dedale.cli import main
from dedale.language import load_book
from dedale.rules import load_ruleset
from dedale.rules.odds import fight_odds
from dedale.solve import solve_book

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["solve", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_for_one_hero_is_the_documented_object(capsys):
    code, out, _ = run(capsys, str(BOOKS / "fork"), "--hero", "8", "16", "8", "--json",
                       "--walkthrough")  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert {"hero", "win_probability", "luck_policy", "states", "seconds", "walkthrough"} <= set(
        data
    )
    assert data["hero"] == {"SKILL": 8, "STAMINA": 16, "LUCK": 8}
    assert data["luck_policy"] == "book-optimal"
    rules = load_ruleset("df-classic")
    goblin = fight_odds(rules, 8, 16, [(6, 5)], luck=8, luck_policy="best").win_probability
    assert data["win_probability"] == pytest.approx(goblin, abs=1e-9)
    first = data["walkthrough"][0]
    assert first["paragraph"] == 1
    assert first["decision"] == {"kind": "choice", "target": 2, "text": "Open the left door"}
    assert {"kind": "choice", "target": 5, "text": "Climb down the old well"} in first["fatal"]
    assert [step["paragraph"] for step in data["walkthrough"]] == [1, 2, 4]
    fight = data["walkthrough"][1]["rolled"][0]
    assert fight["kind"] == "fight" and fight["won"]


def test_luck_none_is_said_and_changes_the_answer(capsys):
    _, best, _ = run(capsys, str(BOOKS / "chain"), "--hero", "7", "14", "7", "--json")
    _, none, _ = run(capsys, str(BOOKS / "chain"), "--hero", "7", "14", "7", "--json",
                     "--luck", "none")  # fmt: skip
    best, none = json.loads(best), json.loads(none)
    assert none["luck_policy"] == "none"
    assert best["win_probability"] > none["win_probability"]


def test_without_hero_the_landmarks_and_the_average(capsys):
    # (--luck fight: the book's best Luck costs 4x the CPU, 34 s for this average)
    code, out, _ = run(capsys, str(BOOKS / "fork"), "--json", "--budget", "120", "--luck", "fight")
    assert code == 0
    data = json.loads(out)
    assert data["luck_policy"] == "fight-optimal"
    labels = [hero["label"] for hero in data["heroes"]]
    assert labels == ["weakest", "median", "strongest"]
    assert data["heroes"][0]["hero"] == {"SKILL": 7, "STAMINA": 14, "LUCK": 7}
    assert data["heroes"][2]["hero"] == {"SKILL": 12, "STAMINA": 24, "LUCK": 12}
    average = data["averages"][0]
    assert average["complete"] and average["heroes"] == 6 * 11 * 6
    weakest = data["heroes"][0]["win_probability"]
    assert weakest <= average["win_probability"] <= data["heroes"][2]["win_probability"]


def test_a_hub_is_solved_by_value_iteration(capsys):
    code, out, _ = run(capsys, str(BOOKS / "hub"), "--hero", "9", "18", "9", "--json",
                       "--walkthrough")  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["loops"] == 1
    # pull until 1 (win) or 2 (death): 1/2 exactly
    assert data["win_probability"] == pytest.approx(0.5, abs=1e-9)
    assert [step["paragraph"] for step in data["walkthrough"]] == [1, 2, 3]
    assert data["walkthrough"][1]["rolled"] == [{"kind": "dice", "faces": [1]}]


def test_a_french_book_answers_in_french(capsys):
    code, out, _ = run(capsys, str(BOOKS / "fourche"), "--hero", "8", "16", "8",
                       "--walkthrough")  # fmt: skip
    assert code == 0
    assert "chance de gagner" in out
    assert "HABILETÉ 8 ENDURANCE 16 CHANCE 8" in out
    assert "rendez-vous au 2" in out


def test_the_state_cap_reports_the_part_solved(capsys):
    code, out, _ = run(capsys, str(BOOKS / "meal"), "--hero", "9", "18", "9", "--json",
                       "--max-states", "20")  # fmt: skip
    assert code == 3
    data = json.loads(out)
    assert data["complete"] is False and data["limit"] == "states"
    assert data["states"] > 20 and data["expanded"] <= data["states"]
    full = solve_book(load_book(BOOKS / "meal"), (9, 18, 9)).win_probability
    assert data["win_probability"] <= full  # a lower bound: the rest counted as lost


def test_the_time_budget_reports_the_part_solved(capsys):
    code, out, _ = run(capsys, str(BOOKS / "meal"), "--hero", "9", "18", "9",
                       "--budget", "0.000001")  # fmt: skip
    assert code == 3
    assert "not solved" in out and "at least" in out


def test_a_fight_it_cannot_model_is_located(capsys, tmp_path):
    book = tmp_path / "ally"
    book.mkdir()
    (book / "book.yaml").write_text((BOOKS / "acts" / "book.yaml").read_text())
    (book / "book.dd").write_text(
        (BOOKS / "acts" / "book.dd")
        .read_text()
        .replace("> it deals 3", "> ally BRAN SKILL 8 STAMINA 10\n> escape -> 2")
    )
    code, _, err = run(capsys, str(book), "--hero", "9", "18", "9")
    assert code == 1
    assert "ally/book.dd:3:3" in err
    assert "allies with an escape" in err
    assert "in turn or as one, without ways out" in err


def test_enemies_fought_together_take_the_group_dp(capsys):
    from dedale.rules import load_ruleset
    from dedale.rules.odds import fight_odds
    from dedale.solve.fights import GROUP_LUCK_WORK

    code, out, _ = run(capsys, str(BOOKS / "together"), "--hero", "9", "18", "9", "--json")
    assert code == 0
    expected = fight_odds(
        load_ruleset("df-classic"), 9, 18, [(5, 4), (5, 4)], luck=9, luck_policy="best",
        mode="together", luck_work=GROUP_LUCK_WORK,
    ).win_probability  # fmt: skip
    assert json.loads(out)["win_probability"] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    "args",
    [["--hero", "9", "18"], ["--class", "Wizard"], ["--budget", "0"], ["--max-states", "0"]],
)
def test_usage_errors(capsys, args):
    code, _, err = run(capsys, str(BOOKS / "fork"), *args)
    assert code == 2 and err


def test_an_unfinished_average_gives_its_bounds(capsys):
    code, out, _ = run(capsys, str(BOOKS / "fork"), "--json", "--budget", "2", "--luck", "fight")
    assert code == 3
    average = json.loads(out)["averages"][0]
    assert not average["complete"] and average["solved"] < average["heroes"]
    low, high = average["lower_bound"], average["upper_bound"]
    assert low == average["win_probability"]
    assert high == pytest.approx(min(1.0, low + 1.0 - average["covered"]), abs=1e-12)
    if average["covered"] > 0:  # the exact mean over the heroes solved, within the bounds
        assert low <= average["solved_mean"] * average["covered"] + 1e-12
        assert 0.0 <= average["solved_mean"] <= 1.0
