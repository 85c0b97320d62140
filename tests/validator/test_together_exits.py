"""The validator's odds of fights against several enemies at once with exits (issue 14.1/14.2):
exact rows (no estimate, no I115) equal to rules/odds_group_exits.py computed apart; past
the budget, the estimate and I115 saying why."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from dedale import ast
from dedale.language import load_book
from dedale.rules.odds_group_exits import group_exit_odds
from dedale.validator import validate_path
from dedale.validator.fight_plan import plan_of
from dedale.validator.fights import OddsCalculator, fight_reports
from dedale.validator.graph import build_graph

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"


def test_fights_at_once_with_exits_have_exact_rows():
    path = BOOKS / "together-exits-exact.dd"
    report = validate_path(path, runs=0, seed=0)
    assert [f.code for f in report.findings] == []
    book = load_book(path)
    reports = fight_reports(build_graph(book), book, seconds=None)
    assert [r.paragraph for r in reports] == [1, 3]
    calculator = OddsCalculator(book.ruleset)
    for found in reports:
        assert found.method == "exact" and found.estimated_because is None
        assert len(found.odds) == 6  # three heroes, no Luck and the best Luck
        fight = found.fight
        line_up = tuple(
            (dict(e.stats)["SKILL"], dict(e.stats)["STAMINA"], False) for e in fight.enemies
        )
        for odds in found.odds:
            if odds.luck == "best" and odds.hero.level != "median":
                continue  # (the costly rows: one of them is enough here)
            stats = dict(odds.hero.stats)
            plan = plan_of(fight, book.ruleset, line_up, stats)
            plan = dataclasses.replace(plan, bonus=fight.attack_bonus)
            apart = group_exit_odds(
                book.ruleset, stats["SKILL"], stats["STAMINA"], plan, luck=stats["LUCK"],
                luck_policy=odds.luck, target="best",
            )  # fmt: skip
            assert odds.win == pytest.approx(apart, abs=1e-12)
        none = {o.hero.level: o.win for o in found.odds if o.luck == "none"}
        best = {o.hero.level: o.win for o in found.odds if o.luck == "best"}
        assert all(best[level] >= none[level] - 1e-12 for level in none)
        assert none["weakest"] < 1.0  # a fight that can be lost
    assert calculator.policies == ("none", "best")


def test_a_fight_at_once_too_large_is_estimated_and_says_why():
    path = BOOKS / "I115-fight-at-once-too-large.dd"
    report = validate_path(path, runs=0, seed=0)
    assert [(f.code, f.span.line) for f in report.findings] == [("I115", 9)]
    (found,) = [f for f in report.findings if f.code == "I115"]
    assert "enemies at once" in str(found.message)
    book = load_book(path)
    (fight_report,) = fight_reports(build_graph(book), book, seconds=None)
    assert fight_report.method == "estimate"
    assert isinstance(fight_report.fight, ast.Fight)
