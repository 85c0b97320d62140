"""A fight at once whose best-Luck DP fits the budget for the weakest hero but not for the
median one: the table keeps the weakest's exact best-Luck row (it was computed before the
budget ran out) and estimates only the others, with I115's reason; the path of fights then
follows the median hero without Luck in that fight, with the table's reason, instead of
spending the budget again. The table's best Luck is the array fill's
(rules/odds_group_exits_array.py), bounded by its count of work: 2,500,000 units lets the
weakest hero in (1,928,240), not the median (3,206,368); the path's forward pass follows
the states one by one, bounded by their count."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.i18n import translate
from dedale.rules import load_ruleset, odds_group_exits, odds_group_exits_array
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_group_exits import group_exit_odds
from dedale.validator.checker import validate_path

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
BOOK = BOOK / "best-luck-partly-past-budget.dd"


def _rows(report):
    (fight,) = report.fights
    return fight, {(o.hero.level, o.luck): o for o in fight.odds}


def test_the_weakest_heros_exact_best_luck_row_is_kept(monkeypatch):
    monkeypatch.setattr(odds_group_exits_array, "ARRAY_WORK", 2_500_000)  # the weakest fits
    monkeypatch.setattr(odds_group_exits, "MAX_STATES", 15_000)
    report = validate_path(BOOK, runs=0)
    fight, rows = _rows(report)
    weakest = rows[("weakest", "best")]
    skill, stamina, luck = (weakest.hero.get(s) for s in ("SKILL", "STAMINA", "LUCK"))
    plan = ExitPlan(enemies=((9, 8, False), (9, 8, False)), limit=8)
    rules = load_ruleset("df-classic")
    exact = group_exit_odds(rules, skill, stamina, plan, luck=luck, luck_policy="best")
    assert not weakest.estimate and weakest.win == pytest.approx(exact, abs=1e-12)
    assert rows[("median", "best")].estimate and not rows[("median", "none")].estimate
    assert "2,500,000 units of work" in translate(fight.estimated_because, "en")


def test_the_path_follows_the_median_without_luck_with_the_tables_reason(monkeypatch):
    monkeypatch.setattr(odds_group_exits_array, "ARRAY_WORK", 2_500_000)
    monkeypatch.setattr(odds_group_exits, "MAX_STATES", 15_000)
    calls = []
    original = odds_group_exits.GroupExitSolver.solve

    def counted(self, stamina, luck):
        calls.append((self.use_luck, stamina))
        return original(self, stamina, luck)

    monkeypatch.setattr(odds_group_exits.GroupExitSolver, "solve", counted)
    report = validate_path(BOOK, runs=0)
    fight, rows = _rows(report)
    median = report.fight_path.of("median")
    ((number, why),) = median.reasons
    assert number == 1 and "without Luck" in why.translate("en")
    assert "2,500,000 units of work" in why.translate("en")
    median_stamina = rows[("median", "best")].hero.get("STAMINA")
    # the table tried the median's best Luck once; the path did not try it again
    assert calls.count((True, median_stamina)) == 1


def test_with_the_default_budget_every_row_is_exact():
    report = validate_path(BOOK, runs=0)
    fight, rows = _rows(report)
    assert fight.estimated_because is None
    assert not any(row.estimate for row in rows.values())
