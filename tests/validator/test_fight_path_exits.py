"""Fights with exits on the path of fights (issue 14.4): the wounds are carried through a
fight that ends "when your STAMINA falls to 4 or less" and one "not won after 3 assaults",
only the ways out that go where the path goes. Checked against an independent chain (a
recursion over the assaults for the threshold, ``exit_outcomes`` for the assault limit,
``fight_odds`` for the last fight) and against the real interpreter with seeded dice."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds import fight_odds
from dedale.rules.odds_exits_forward import exit_outcomes
from dedale.validator import validate_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_steps import Fight, Segments
from dedale.validator.fight_plan import plan_of
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import assert_within_3_se, ff_values, victory_rate

BOOK = (
    Path(__file__).resolve().parents[1] / "books_extra" / "validator" / "path-fights-with-exits.dd"
)


def _median(book):
    return next(h for h in hero_profiles(book.ruleset) if h.level == "median")


def _assault(lead: int) -> tuple[float, float]:
    """(hero wins, enemy wins) an assault with 2d6 each and the hero ``lead`` ahead."""
    rolls = [a + b for a in range(1, 7) for b in range(1, 7)]
    hero = sum(1 for x in rolls for y in rolls if x + lead > y) / 1296
    enemy = sum(1 for x in rolls for y in rolls if x + lead < y) / 1296
    return hero, enemy


def _threshold_fight(skill: int, stamina: int, enemy_skill: int, enemy_stamina: int):
    """{STAMINA: chance} of leaving alive by the win or by "STAMINA falls to 4 or less"
    (2 damage a wound each way, ties replayed), no Luck: a plain recursion."""
    win, lose = _assault(skill - enemy_skill)
    scale = 1.0 / (win + lose)

    @cache
    def ends(h: int, e: int) -> tuple:
        out: dict[int, float] = {}
        if e - 2 <= 0:
            out[h] = out.get(h, 0.0) + win * scale
        else:
            for end, p in ends(h, e - 2):
                out[end] = out.get(end, 0.0) + win * scale * p
        if h - 2 > 0 and h - 2 <= 4:
            out[h - 2] = out.get(h - 2, 0.0) + lose * scale
        elif h - 2 > 4:
            for end, p in ends(h - 2, e):
                out[end] = out.get(end, 0.0) + lose * scale * p
        return tuple(out.items())

    return dict(ends(stamina, enemy_stamina))


def _hand_chain(book, hero) -> list[float]:
    stats = dict(hero.stats)
    skill, luck = stats["SKILL"], stats["LUCK"]
    gate = _threshold_fight(skill, stats["STAMINA"], 9, 10)  # both ways go on to § 3
    dist = {(h, luck): p for h, p in gate.items()}
    cumulative = [sum(dist.values())]
    warden = next(s for s in book.paragraphs[3].body if type(s).__name__ == "Fight")
    plan = plan_of(warden, book.ruleset, ((10, 6, False),), stats)
    new: dict[tuple[int, int], float] = {}
    for (h, lk), p in dist.items():  # only the assault limit goes on to § 4
        for end, q in exit_outcomes(book.ruleset, skill, h, plan).limit.items():
            new[(end[0], lk)] = new.get((end[0], lk), 0.0) + p * q
    dist = new
    cumulative.append(sum(dist.values()))
    new = {}
    for (h, lk), p in dist.items():
        result = fight_odds(book.ruleset, skill, h, [(10, 12)], luck=lk, luck_policy="none")
        for end, q in result.end_states.items():
            new[end] = new.get(end, 0.0) + p * result.win_probability * q
    cumulative.append(sum(new.values()))
    return cumulative


def _steps(book, graph, segments):
    by_target = {2: 3, 3: 4, 4: 5}
    steps = []
    for number in (1, 2, 3, 4):
        node = graph.nodes[number]
        edges = [e for e in node.edges if e.target == by_target.get(number, 2)]
        steps += segments.of(node, edges[0])
    return tuple(steps)


def test_the_ways_out_the_path_takes_are_carried_as_an_independent_chain():
    book = load_book(BOOK)
    graph = build_graph(book)
    reports = fight_reports(graph, book)
    hero = _median(book)
    segments = Segments(book.ruleset, book)
    steps = _steps(book, graph, segments)
    assert [type(step) for step in steps] == [Fight, Fight, Fight]
    assert steps[0].ways == {("won", -1), ("threshold", -1)}  # both go to § 3
    assert steps[1].ways == {("limit", -1)}  # the win goes to § 6
    assert steps[2].ways is None
    chain = HeroChain(book.ruleset, hero, "none", {r.fight.span: r for r in reports})
    result = chain.best(steps)
    expected = _hand_chain(book, hero)
    assert [step.cumulative for step in result.fights] == pytest.approx(expected, abs=1e-9)
    assert result.exact and 0.05 < expected[-1] < 0.95
    assert 0.0 < result.fights[1].chance < 1.0  # the warden's win leaves the path


def test_the_validator_reports_the_path_exactly():
    median = validate_path(BOOK, runs=0).fight_path.of("median")
    assert median.exact and median.paragraphs == (1, 2, 3, 4, 5)
    assert [step.exact for step in median.fights] == [True, True, True]


def test_a_fight_with_an_escape_is_followed_exactly(tmp_path):
    """An escape to § 4 beside the assault limit to § 4: both ways out go on (the escape
    with its wound), the win still leaves the path (fight_path_group.py)."""
    text = BOOK.read_text("utf-8").replace("> win -> 6\n", "> win -> 6\n> escape -> 4\n")
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    median = validate_path(path, runs=0).fight_path.of("median")
    assert median.exact and median.paragraphs == (1, 2, 3, 4, 5)
    plain = validate_path(BOOK, runs=0).fight_path.of("median")
    assert median.fights[1].chance > plain.fights[1].chance  # escaping is a way on


def test_the_chain_agrees_with_the_real_interpreter_within_3_se():
    """The median hero plays the book 2,000 times through the interpreter, seeded dice,
    no Luck: the victories are within 3 standard errors of the chain's figure."""
    book = load_book(BOOK)
    hero = _median(book)
    exact = _hand_chain(book, hero)[-1]
    runs = 2000
    played = victory_rate(book, ff_values(hero), runs, steps=500)
    assert_within_3_se(played, exact, runs)
