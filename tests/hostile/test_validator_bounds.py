"""The validator's cost is bounded (issue 11.4, 11.5): nothing is allocated by a value an
author typed, and every costly check stops at a time budget, saying so (I051)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from dedale.rules import load_ruleset
from dedale.rules.odds import fight_odds
from dedale.rules.odds_inputs import OddsTooLarge
from dedale.validator import validate_path

YAML = "title: Bounds\nlanguage: en\nruleset: df-classic\nstart: 1\n"


def book(tmp_path: Path, text: str, yaml: str = YAML) -> Path:
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "book.yaml").write_text(yaml, encoding="utf-8")
    (folder / "book.dd").write_text(text, encoding="utf-8")
    return folder


def codes_and_messages(folder: Path, runs: int = 0) -> list[tuple[str, int | None, str]]:
    started = time.monotonic()
    report = validate_path(folder, runs=runs, seed=0)
    assert time.monotonic() - started < 20
    return [(f.code, f.span.line if f.span else None, str(f.message)) for f in report.findings]


@pytest.mark.parametrize("stamina", ["100000000", "1" + "0" * 30])
def test_an_enemy_stamina_past_the_stat_range_is_a_load_error(tmp_path, stamina):
    text = f"§ 1\nA giant.\n> fight\n> enemy GIANT SKILL 9 STAMINA {stamina}\n> win -> 2\n\n"
    found = codes_and_messages(book(tmp_path, text + "§ 2\n> victory\n"), runs=5)
    assert [item[:2] for item in found] == [("E001", 4)]
    assert "stat value" in found[0][2] or "far too long" in found[0][2]


def test_huge_enemy_stamina_is_w032_saying_why(tmp_path):
    # the largest STAMINA a book may write still makes too many states for the exact DP
    text = "§ 1\nA giant.\n> fight\n> enemy GIANT SKILL 9 STAMINA 9999\n> win -> 2\n\n"
    found = codes_and_messages(book(tmp_path, text + "§ 2\n> victory\n"), runs=5)
    # the random games end (the hero dies): no hang, no MemoryError; none wins (I042)
    assert [item[:2] for item in found] == [("W032", 3), ("I042", 7)]
    assert "the exact odds would need more than 1,000,000 states" in found[0][2]
    assert "is too large to compute" in found[0][2]


def test_the_dp_refuses_before_allocating():
    ruleset = load_ruleset("df-classic")
    with pytest.raises(OddsTooLarge) as raised:
        fight_odds(ruleset, 10, 20, [(9, 10**30)])
    assert raised.value.hint
    with pytest.raises(OddsTooLarge):
        fight_odds(ruleset, 10, 10**9, [(9, 10)], win_only=True)
    assert fight_odds(ruleset, 10, 20, [(9, 10)]).win_probability > 0  # still exact


def test_huge_dice_table_row_is_interval_arithmetic(tmp_path):
    text = "§ 1\nRoll.\n> roll 1d6\n> 1-99999: go to 2\n\n§ 2\n> victory\n"
    assert codes_and_messages(book(tmp_path, text)) == []


def test_dice_table_gaps_are_still_found():
    from dedale.validator.graph import uncovered

    assert uncovered((2, 12), [(2, 4), (6, 7), (9, 10**11)]) == [(5, 5), (8, 8)]
    assert uncovered((1, 6), []) == [(1, 6)]


def test_random_games_stop_at_their_time_budget(tmp_path):
    yaml = YAML + "validator:\n  time_budget: 0.000001\n"
    text = "§ 1\nStart.\n-> 2 Left\n-> 3 Right\n\n§ 2\n> victory\n\n§ 3\n> death\n"
    report = validate_path(book(tmp_path, text, yaml), runs=1000, seed=0)
    budget = [f for f in report.findings if f.code == "I051"]
    assert len(budget) == 1 and budget[0].data["total"] == 1000
    assert budget[0].data["done"] < 1000 == report.playthroughs.planned
    assert report.playthroughs.runs == budget[0].data["done"]
    assert str(budget[0].message).startswith("random playthroughs stopped at the time budget")
    assert not [f for f in report.findings if f.code == "I042"] or report.playthroughs.runs


def test_fight_odds_stop_at_their_time_budget(tmp_path):
    from dedale.language import load_book
    from dedale.validator.fight_findings import fights_budget
    from dedale.validator.fights import CUT, fight_reports
    from dedale.validator.graph import build_graph

    fights = "".join(
        f"§ {n}\nA rat.\n> fight\n> enemy RAT SKILL {n % 9 + 3} STAMINA 5\n> win -> {n + 1}\n\n"
        for n in range(1, 6)
    )
    loaded = load_book(book(tmp_path, fights + "§ 6\n> victory\n"))
    reports = fight_reports(build_graph(loaded), loaded, 0, seconds=-1.0)
    assert [report.error for report in reports] == [CUT] * 5
    found = fights_budget(reports, 2.0)
    assert [(f.code, f.data["done"], f.data["total"]) for f in found] == [("I051", 0, 5)]


def test_state_checks_stop_at_their_time_budget(tmp_path, monkeypatch):
    from dedale.validator import state_explorer

    monkeypatch.setattr(state_explorer, "CLOCK_EVERY", 1)
    yaml = YAML + "validator:\n  time_budget: 0.000001\n"
    text = (
        "§ 1\nStart.\n-> 2 Left\n-> 3 Right\n\n§ 2\n> set codeword OWL\n-> 3 On\n\n"
        "§ 3\n-> 4 (if codeword OWL) Speak\n-> 5 Run\n\n§ 4\n> victory\n\n§ 5\n> death\n"
    )
    found = codes_and_messages(book(tmp_path, text, yaml))
    assert [code for code, _, _ in found] == ["I051"]
    assert found[0][2].startswith("state-aware checks (E028, W029) stopped at the time budget")


def test_time_budget_setting_is_checked(tmp_path):
    yaml = YAML + "validator:\n  time_budget: forever\n"
    found = codes_and_messages(book(tmp_path, "§ 1\n> victory\n", yaml))
    assert [code for code, _, _ in found] == ["E003"]
    assert "validator.time_budget" in found[0][2]


def test_huge_enemy_of_an_estimated_fight_is_w032_not_a_hang(tmp_path):
    text = (
        "§ 1\nRats.\n> fight all at once\n> enemy RAT SKILL 1 STAMINA 9999\n"
        "> enemy RAT SKILL 1 STAMINA 3\n> win -> 2\n\n§ 2\n> victory\n"
    )
    found = codes_and_messages(book(tmp_path, text))
    assert [item[:2] for item in found] == [("W032", 3)]
    assert "RAT has 9999 STAMINA: too much to simulate its fights" in found[0][2]


def test_random_games_against_an_endless_fight_are_cut(tmp_path):
    from dedale.language import load_book
    from dedale.validator.graph import build_graph
    from dedale.validator.loops import needs_guard
    from dedale.validator.playthroughs import play_one

    text = "§ 1\nA wall.\n> fight\n> enemy WALL SKILL 0 STAMINA 9999\n> win -> 2\n\n"
    loaded = load_book(book(tmp_path, text + "§ 2\n> victory\n"))
    assert needs_guard(build_graph(loaded))
    started = time.monotonic()
    result = play_one(loaded, 0, 2000, guarded=True)
    assert time.monotonic() - started < 10
    assert result.outcome in ("loop", "death")
