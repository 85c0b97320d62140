"""A way out to a death ending on the path of fights (issue 14.4, item 1 of session 8): an
escape to a paragraph whose only way on is death is a defeat, so the path's solvers never
take it, even where it is the surest way to leave the fight (before, the troll's escape
after one assault, always survived, was taken by every hero: the path's figure was 0).
The fixture: a troll with an escape (the solver of fights at once with exits), then two
goblins one after another with an escape (the exact odds with exits and the escape added,
``fight_path_acting``), both escapes to § 5, a death ending. Checked against an independent
chain (the plain exact DP's end states of the same fights without escape, convolved by hand)
and against the real interpreter, seeded, the player never escaping."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds import fight_odds
from dedale.validator import validate_path
from dedale.validator.death_ways import deadly
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_steps import Fight, Segments
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator" / "path-escape-to-death.dd"


def _hero(book, level: str):
    return next(h for h in hero_profiles(book.ruleset) if h.level == level)


def _chain(book, hero, policy: str, doomed: bool = True):
    graph = build_graph(book)
    reports = {r.fight.span: r for r in fight_reports(graph, book)}
    segments = Segments(book.ruleset, book)
    steps = []
    for number, target in ((1, 2), (2, 3), (3, 4)):
        node = graph.nodes[number]
        steps += segments.of(node, next(e for e in node.edges if e.target == target))
    is_deadly = deadly(graph, book) if doomed else None
    return tuple(steps), HeroChain(book.ruleset, hero, policy, reports, deadly=is_deadly)


def _hand_chain(book, hero, policy: str) -> list[float]:
    """The chance alive after each fight, by the plain exact DP (no escape: the hero never
    takes one to his death), its end states (STAMINA, LUCK) carried by hand."""
    stats = dict(hero.stats)
    luck = stats["LUCK"] if policy == "best" else None
    dist = {(stats["STAMINA"], stats["LUCK"]): 1.0}
    cumulative = []
    for enemies in ([(9, 8)], [(7, 5), (8, 5)]):
        new: dict = {}
        for (h, lk), p in dist.items():
            lk_in = lk if luck is not None else None
            odds = fight_odds(book.ruleset, stats["SKILL"], h, enemies, luck=lk_in,
                              luck_policy=policy)  # fmt: skip
            for (h2, lk2), q in odds.end_states.items():  # given a win
                key = (h2, lk2 if luck is not None else lk)
                new[key] = new.get(key, 0.0) + p * odds.win_probability * q
        dist = new
        cumulative.append(sum(dist.values()))
    return cumulative


@pytest.mark.parametrize("level", ["weakest", "median"])
@pytest.mark.parametrize("policy", ["none", "best"])
def test_the_chain_never_escapes_to_a_death_ending(level, policy):
    book = load_book(BOOK)
    hero = _hero(book, level)
    steps, chain = _chain(book, hero, policy)
    assert [type(step) for step in steps] == [Fight, Fight]
    assert steps[0].ways == {("won", -1)}  # the escape goes to § 5: off the path
    result = chain.best(steps)
    assert result.exact, result.reasons
    expected = _hand_chain(book, hero, policy)
    assert [step.cumulative for step in result.fights] == pytest.approx(expected, abs=1e-9)
    assert 0.01 < expected[-1] < 0.95


def test_without_the_death_endings_every_hero_escapes():
    """The old figure (the solver blind to the death ending): the sure escape is taken."""
    book = load_book(BOOK)
    steps, chain = _chain(book, _hero(book, "strongest"), "best", doomed=False)
    assert chain.best(steps).win == 0.0
    steps, chain = _chain(book, _hero(book, "strongest"), "best")
    assert chain.best(steps).win > 0.99


def test_the_validator_reports_the_path_through_both_fights():
    fight_path = validate_path(BOOK, runs=0).fight_path
    median = fight_path.of("median")
    assert median.paragraphs == (1, 2, 3, 4)
    assert median.reasons == () and all(step.exact for step in median.fights)
    book = load_book(BOOK)
    expected = _hand_chain(book, _hero(book, "median"), "best")
    assert [step.cumulative for step in median.fights] == pytest.approx(expected, abs=1e-9)


def test_the_chain_agrees_with_the_real_interpreter_within_3_se():
    """The median hero plays the book 2,000 times through the interpreter, seeded dice, no
    Luck, never escaping: his victories are within 3 standard errors of the chain."""
    from dedale import events
    from dedale.game import Game

    book = load_book(BOOK)
    hero = _hero(book, "median")
    steps, chain = _chain(book, hero, "none")
    exact = chain.best(steps).win
    stats = dict(hero.stats)
    runs, won, offered = 2000, 0, 0
    for seed in range(runs):
        game = Game.new(
            book, seed, hero=(stats["SKILL"], stats["STAMINA"], stats["LUCK"]),
            name="Ari", lang="en", free_stats=True,
        )  # fmt: skip
        for _ in range(500):
            item = game.next()
            if item is None:
                break
            if isinstance(item, events.ChoosePrompt):
                game.answer(next(o.index for o in item.options if o.enabled))
            elif isinstance(item, events.YesNoPrompt):
                offered += item.kind == "escape"
                game.answer(False)
            elif isinstance(item, events.Prompt):
                raise AssertionError(item)
        won += game.state.outcome == "victory"
    se = math.sqrt(exact * (1 - exact) / runs)
    assert offered > runs  # the escape was offered, and declined
    assert 0.05 < exact < 0.95
    assert abs(won / runs - exact) <= 3 * se, (won / runs, exact)
