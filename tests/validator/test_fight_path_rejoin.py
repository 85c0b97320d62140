"""A way out of a fight that rejoins the path (issue 14.4): two wolves at once, ``not won
after 6 assaults -> 3`` and ``victory -> 2``, § 3 only turning to § 2, where a guard waits.
Both ways out alive reach the guard, each with its own wounds: the path's chance counts them
both (it counted only the win, so the strongest hero scored below the median). The joined
chance is checked against each way's chain computed alone and summed by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import validate_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_counters import LocalCounters
from dedale.validator.fight_path_exits import ways_of
from dedale.validator.fight_path_steps import Fight, Segments
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator" / "path-exit-rejoins.dd"


def test_the_way_out_through_a_paragraph_that_only_turns_on_goes_on_along_the_path():
    book = load_book(BOOK)
    graph = build_graph(book)
    node = graph.nodes[1]
    fight = next(s for s in node.paragraph.body if type(s).__name__ == "Fight")
    to_2 = next(edge for edge in node.edges if edge.target == 2)
    to_3 = next(edge for edge in node.edges if edge.target == 3)
    assert ways_of(fight, to_2, book) == {("won", -1), ("limit", -1)}
    # § 3 only turns to § 2: the win (to § 2) and the limit (to § 3) meet at § 2 either way
    assert ways_of(fight, to_3, book) == {("won", -1), ("limit", -1)}


def test_the_strongest_hero_scores_at_least_the_median_and_the_path_reads_on():
    path = validate_path(BOOK, runs=0).fight_path
    weakest, median, strongest = (path.of(level) for level in ("weakest", "median", "strongest"))
    assert weakest.win <= median.win <= strongest.win
    assert median.paragraphs == (1, 2, 4)
    assert median.exact


def _steps(graph, segments, moves):
    steps = []
    for number, target in moves:
        node = graph.nodes[number]
        edge = next((e for e in node.edges if e.target == target), None)
        steps += segments.of(node, edge)
    return steps


@pytest.mark.parametrize("level", ["weakest", "median", "strongest"])
@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_path_sums_the_chains_of_each_way_out(level, policy):
    """The joined chance is the chance through the win (§ 1 → § 2 → § 4) plus the chance
    through the limit (§ 1 → § 3 → § 2 → § 4), each chained alone as before."""
    book = load_book(BOOK)
    graph = build_graph(book)
    reports = {r.fight.span: r for r in fight_reports(graph, book)}
    segments = Segments(book.ruleset, book)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == level)
    chain = HeroChain(book.ruleset, hero, policy, reports, local=LocalCounters(book))
    joined = _steps(graph, segments, ((1, 2), (2, 4), (4, None)))
    first = joined[0]
    assert isinstance(first, Fight) and first.ways == {("won", -1), ("limit", -1)}
    won = (Fight(first.paragraph, first.fight, frozenset({("won", -1)})), *joined[1:])
    through_3 = _steps(graph, segments, ((1, 3), (3, 2), (2, 4), (4, None)))
    limit = (Fight(first.paragraph, first.fight, frozenset({("limit", -1)})), *through_3[1:])
    apart = chain.best(tuple(won)).win + chain.best(tuple(limit)).win
    together = chain.best(tuple(joined))
    assert together.exact
    assert together.win == pytest.approx(apart, abs=1e-12)
    assert 0.0 < chain.best(tuple(limit)).win  # the limit's way does count
    if policy == "best":
        assert validate_path(BOOK, runs=0).fight_path.of(level).win == pytest.approx(
            together.win, abs=1e-12
        )
