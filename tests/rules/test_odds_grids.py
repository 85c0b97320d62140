"""Odds tables of the same setting share their grids and their memo of the states before
the first hit (rules/odds_grids.py): every figure equals the one of a table computed alone,
bit for bit, whatever larger table filled the grids first."""

from __future__ import annotations

import pytest
from dedale.rules import odds_grids
from dedale.rules.odds import OddsTable

CASES = [
    ("df-classic", None, dict(luck_policy="best")),
    ("df-classic", None, dict(luck_policy="none", enemy_damage=3)),
    ("df24", None, dict(luck_policy="best")),
    ("df48.5", "Mercenaire", dict(luck_policy="best")),
    ("df48.5", "Scientifique", dict(luck_policy="best")),
    ("df48.5", "Baroudeur", dict(luck_policy="none")),
]


def _figures(ruleset, class_name, options, enemies, stamina, luck):
    table = OddsTable(ruleset, 9, enemies, class_name=class_name, **options)
    result = table.solve(stamina, luck)
    lower = table.win_probability(max(1, stamina - 4), max(0, luck - 3), 2)
    return result, lower


@pytest.mark.parametrize(("name", "class_name", "options"), CASES)
def test_a_table_from_kept_grids_equals_one_filled_alone(rulesets, name, class_name, options):
    ruleset = rulesets[name]
    enemies = [(8, 7), (9, 5)]
    odds_grids.clear()
    alone = _figures(ruleset, class_name, options, enemies, 18, 8)
    odds_grids.clear()
    # larger tables of the same setting first: more STAMINA, more LUCK, a tougher first
    # enemy, widened in place after being kept
    big = OddsTable(ruleset, 9, [(8, 9), (9, 5)], class_name=class_name, **options)
    big.solve(24, 11)
    big.widen_first(12)
    other_class = None if class_name is None else "Baroudeur"
    OddsTable(ruleset, 9, [(8, 7), (9, 5)], class_name=other_class, **options).solve(20, 9)
    assert odds_grids._KEPT  # the grids were kept
    shared = _figures(ruleset, class_name, options, enemies, 18, 8)
    assert shared == alone  # the whole OddsResult and the lower start, floats compared exactly
    odds_grids.clear()


def test_a_table_takes_the_kept_grids(rulesets, monkeypatch):
    odds_grids.clear()
    ruleset = rulesets["df-classic"]
    OddsTable(ruleset, 10, [(8, 9)], luck_policy="best").solve(22, 10)
    fills = []
    original = OddsTable._fill_grid
    monkeypatch.setattr(
        OddsTable, "_fill_grid", lambda self, *a: fills.append(a) or original(self, *a)
    )
    smaller = OddsTable(ruleset, 10, [(8, 6)], luck_policy="best")
    smaller.solve(15, 7)
    assert fills == []  # nothing filled: copies of the kept grid's part
    assert len(smaller.grids[0][0][0]) == 7  # the first enemy's STAMINA 0..6, its own size
    OddsTable(ruleset, 10, [(8, 6)], luck_policy="best").solve(30, 7)
    assert fills  # more STAMINA than kept: filled
    odds_grids.clear()


def test_the_kept_cells_are_bounded(rulesets, monkeypatch):
    odds_grids.clear()
    monkeypatch.setattr(odds_grids, "MAX_KEPT_CELLS", 2_000)
    ruleset = rulesets["df-classic"]
    for skill in range(6, 12):
        OddsTable(ruleset, skill, [(8, 9)], luck_policy="best").solve(22, 10)
        assert odds_grids._cells <= 2_000 + 23 * 11 * 10
    assert len(odds_grids._KEPT) < 6  # emptied on the way
    odds_grids.clear()
