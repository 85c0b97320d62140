"""A fight whose only rule is a table rolled each assault (``each assault roll 1d6`` /
``1-5: lose 3 STAMINA``): the fight table and the path of fights count the table (it was
left out: the plain DP ignores it, and the median hero was shown 65.6% instead of about
4%). Checked against the real interpreter, seeded dice, no Luck, within 3 standard errors;
the path of fights follows it with the solver of fights with exits (the same figure with
the best Luck as the fight table's other DP)."""

from __future__ import annotations

import pytest
from dedale.language import load_book
from dedale.validator import validate_path
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import assert_within_3_se, ff_values, victory_rate

BOOK = """---
title: The warden's curse
language: en
ruleset: df-classic
---
§ 1
> fight WARDEN SKILL 10 STAMINA 10
> each assault roll 1d6
> 1-5: lose 3 STAMINA
> win -> 2

§ 2
> victory
"""


def test_the_table_rolled_each_assault_counts_against_the_real_interpreter(tmp_path):
    path = tmp_path / "book.dd"
    path.write_text(BOOK, "utf-8")
    book = load_book(path)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    (report,) = fight_reports(build_graph(book), book)
    exact = report.win("median", "none")
    assert report.method == "exact" and 0.005 < exact < 0.2
    runs = 2000
    played = victory_rate(book, ff_values(hero), runs)
    assert_within_3_se(played, exact, runs)
    median = validate_path(path, runs=0).fight_path.of("median")
    assert median.exact  # the path follows the table (fight_path_group.py), another DP:
    assert median.win == pytest.approx(report.win("median", "best"), abs=1e-9)


def test_a_table_row_that_turns_away_keeps_the_path_approximate(tmp_path):
    path = tmp_path / "book.dd"
    text = BOOK.replace("> 1-5: lose 3 STAMINA", "> 1-4: lose 3 STAMINA\n> 5 -> 3")
    path.write_text(text + "\n§ 3\nThe warden's curse takes you.\n> death\n", "utf-8")
    median = validate_path(path, runs=0).fight_path.of("median")
    assert not median.exact and "table" in median.reasons[0][1].translate("en")
