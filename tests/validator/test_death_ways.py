"""A way out of a fight that leads straight to a death ending is no way out alive (issue 14.2,
session 7): the fight table said "leaves alive 100%" for ``when it wins an assault: -> 40``
where 40 is ``> death``, and for an assault limit to such a paragraph. The chance to leave
alive now counts such a way as a defeat; checked against the real interpreter (seeded dice,
no Luck, within 3 standard errors) and in the Textual player's hint."""

from __future__ import annotations

import pytest
from dedale import ast
from dedale.language import load_book
from dedale.validator.death_ways import death_endings, doomed_ways
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import assert_within_3_se, ff_values, victory_rate

HEAD = "---\ntitle: The pit\nlanguage: en\nruleset: df-classic\n---\n"
EVENT = """§ 1
> fight VIPER SKILL 9 STAMINA 8
> when it wins an assault: -> 40
> win -> 2

§ 2
> victory

§ 40
The venom stops your heart.
> death
"""
LIMIT = """§ 1
> fight TROLL SKILL 7 STAMINA 6
> not won after 4 assaults -> 40
> win -> 2

§ 2
> victory

§ 40
The bridge falls with you on it.
> death
"""


def _book(tmp_path, text: str):
    path = tmp_path / "book.dd"
    path.write_text(HEAD + text, "utf-8")
    return load_book(path)


def _median_row(book) -> tuple[float, tuple[int, int, int]]:
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    (report,) = fight_reports(build_graph(book), book)
    assert report.method == "exact"
    return report.win("median", "none"), ff_values(hero)


@pytest.mark.parametrize("text", [EVENT, LIMIT], ids=["event", "assault-limit"])
def test_a_way_out_to_a_death_ending_is_not_leaving_alive(tmp_path, text):
    book = _book(tmp_path, text)
    exact, hero = _median_row(book)
    assert 0.05 < exact < 0.95  # (it was 100%: every game leaves the fight one way)
    runs = 2000
    assert_within_3_se(victory_rate(book, hero, runs), exact, runs)


def test_a_way_out_to_a_paragraph_that_reads_on_still_counts(tmp_path):
    text = EVENT.replace("The venom stops your heart.\n> death", "You crawl away.\n> victory")
    book = _book(tmp_path, text)
    exact, _ = _median_row(book)
    assert exact == pytest.approx(1.0)  # every game leaves alive: won, or to 40


def test_death_endings_are_the_paragraphs_whose_only_way_on_is_death(tmp_path):
    book = _book(
        tmp_path,
        LIMIT + "\n§ 41\nTest your Luck.\n> test your luck\n> lucky -> 2\n> unlucky: death\n",
    )
    graph = build_graph(book)
    assert death_endings(graph) == {40}  # 41 may lead to 2; 1 and 2 are not deaths
    fight = next(s for s in book.paragraphs[1].body if isinstance(s, ast.Fight))
    assert doomed_ways(fight, lambda target: target.number == 40) == {"limit"}


@pytest.mark.parametrize("luck", ["none", "best"])
def test_the_dp_at_once_counts_a_way_to_a_death_ending_as_the_one_line_dp_does(luck):
    """One enemy: the DP at once and the one-line DP are two computations of one fight; with
    the assault limit doomed both give the chance to win within the limit, and less than
    the chance to leave alive with the limit as a way out."""
    from dedale.rules.loader import load_ruleset
    from dedale.rules.odds_exits import ExitPlan, exit_odds
    from dedale.rules.odds_group_exits import group_exit_odds

    ruleset = load_ruleset("df-classic")
    plan = ExitPlan(enemies=((8, 6, False),), limit=4)
    doomed = ExitPlan(enemies=((8, 6, False),), limit=4, doomed=frozenset({"limit"}))
    for hero in ((9, 18, 9), (7, 14, 7)):
        args = (ruleset, hero[0], hero[1])
        line = exit_odds(*args, doomed, luck=hero[2], luck_policy=luck)
        group = group_exit_odds(*args, doomed, luck=hero[2], luck_policy=luck)
        alive = group_exit_odds(*args, plan, luck=hero[2], luck_policy=luck)
        assert group == pytest.approx(line, abs=1e-9)
        assert group < alive - 0.05


def test_a_fight_at_once_with_a_limit_to_a_death_ending(tmp_path):
    text = LIMIT.replace(
        "> fight TROLL SKILL 7 STAMINA 6",
        "> fight all at once\n> enemy TROLL SKILL 7 STAMINA 6\n> enemy IMP SKILL 5 STAMINA 2",
    )
    book = _book(tmp_path, text)
    (report,) = fight_reports(build_graph(book), book)
    assert report.method == "exact" and report.death_ways == (40,)
    assert report.win("median", "none") < 0.95  # (it was 100%: the limit counted as alive)


def test_the_estimate_counts_a_way_to_a_death_ending_as_a_defeat(tmp_path):
    """A fight at once whose exits lead one to a death ending, one on: the DP at once cannot
    tell its exits apart, so the fight is estimated (the real fight code, seeded); the
    estimate too counts the turn to the death ending as a defeat (it was 100%)."""
    text = LIMIT.replace(
        "> fight TROLL SKILL 7 STAMINA 6\n> not won after 4 assaults -> 40\n",
        "> fight all at once\n> enemy TROLL SKILL 9 STAMINA 6\n> enemy IMP SKILL 9 STAMINA 4\n"
        "> when it wins an assault: gain 1 bites\n> end the fight when bites >= 2 -> 40\n"
        "> end the fight when bites >= 9 -> 2\n",
    )
    path = tmp_path / "book.dd"
    counters = (
        "rules:\n  counters:\n    bites: {names: {en: Bites}, aliases: [bites], initial: 0}\n"
    )
    path.write_text(HEAD.replace("---\n§", "§").replace("ruleset: df-classic\n",
                    "ruleset: df-classic\n" + counters) + text, "utf-8")  # fmt: skip
    book = load_book(path)
    (report,) = fight_reports(build_graph(book), book)
    assert report.method == "estimate"
    median = report.win("median", "none")
    assert 0.05 < median < 0.9, median  # won before a lost assault
