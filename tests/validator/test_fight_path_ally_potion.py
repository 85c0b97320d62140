"""The book's potion inside a fight with allies on the path of fights (issue 14.4, item 3 of
session 8): two Healing Draughts (at 4: gain 4) held through an ogre fought beside Bran (the
enemies strike at random, held off for 6 assaults), then a wolf alone. The potion acts in
the ally fight where the interpreter makes it act (a mortal wound, after each assault):
:mod:`dedale.validator.fight_path_ally_potion`. Checked against the real interpreter with
seeded dice (within 3 standard errors), and against the chain that does not count it in
that fight (the doses used once it is over): the figures differ."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import fight_path_ally_potion, validate_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_steps import Dose, Fight, Item, Segments
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import ff_values, victories

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
BOOK = BOOK / "path-potion-ally-fight.dd"


def _hero(book, level: str):
    return next(h for h in hero_profiles(book.ruleset) if h.level == level)


def _chain(book, hero, policy: str = "none"):
    graph = build_graph(book)
    reports = {r.fight.span: r for r in fight_reports(graph, book)}
    segments = Segments(book.ruleset, book)
    steps = []
    for number, target in ((1, 2), (2, 3), (3, 4)):
        node = graph.nodes[number]
        steps += segments.of(node, next(e for e in node.edges if e.target == target))
    potion, start, _ = segments.potions.for_path(book, tuple(steps))
    chain = HeroChain(book.ruleset, hero, policy, reports, potion=potion, doses=start)
    return tuple(steps), chain


def test_the_potion_is_drunk_inside_the_ally_fight():
    book = load_book(BOOK)
    hero = _hero(book, "weakest")
    steps, chain = _chain(book, hero)
    assert [type(s) for s in steps] == [Item, Dose, Fight, Fight]
    assert steps[2].ways == {("won", -1), ("limit", -1)}
    stats = dict(hero.stats)
    win, ends, why = chain.dosed_exit_kernel(
        steps[2].fight, steps[2].ways, frozenset(), stats["STAMINA"], stats["LUCK"], 2
    )
    assert why is None
    assert {left for (_, _, left), _ in ends} == {0, 1, 2}  # none, one or both drunk
    after = chain.moves(steps[2], (stats["STAMINA"], stats["LUCK"], 0, 2), frozenset())[0]
    assert all(h > 4 or left == 0 for (h, _, _, left), _ in after)  # drunk once it is over
    plain, _, _ = chain.exit_kernel(
        steps[2].fight, steps[2].ways, frozenset(), stats["STAMINA"], stats["LUCK"]
    )
    assert win > plain + 0.02  # the doses save him in the fight
    result = chain.best(steps)
    assert result.exact, result.reasons


def test_not_counted_in_the_fight_the_figure_is_lower_and_approximate(monkeypatch):
    book = load_book(BOOK)
    hero = _hero(book, "weakest")
    steps, chain = _chain(book, hero)
    exact = chain.best(steps).win
    monkeypatch.setattr(
        fight_path_ally_potion, "ally_potion_reason", lambda fight, potion: "refused"
    )
    steps, chain = _chain(book, hero)
    old = chain.best(steps)
    assert not old.exact and old.win < exact - 0.005


def test_the_validator_follows_the_potion_in_the_ally_fight():
    fight_path = validate_path(BOOK, runs=0).fight_path
    assert fight_path.potion == "Healing Draughts"
    for hero in fight_path.heroes:
        assert hero.reasons == () and all(step.exact for step in hero.fights)


def test_the_chain_agrees_with_the_real_interpreter_within_3_se():
    """The weakest hero plays the book 2,000 times, seeded dice, no Luck."""
    book = load_book(BOOK)
    hero = _hero(book, "weakest")
    steps, chain = _chain(book, hero)
    exact = chain.best(steps).win
    runs = 2000
    won = victories(book, ff_values(hero), runs)
    se = math.sqrt(exact * (1 - exact) / runs)
    assert 0.05 < exact < 0.95, exact
    assert abs(won / runs - exact) <= 3 * se, (won / runs, exact)


@pytest.mark.parametrize("rule", ["> on a double: its SKILL -1\n", "> first assault won -> 3\n"])
def test_an_event_under_the_enemy_keeps_the_estimate(rule, tmp_path):
    text = BOOK.read_text("utf-8").replace("> ally BRAN", rule + "> ally BRAN")
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    median = validate_path(path, runs=0).fight_path.of("median")
    shown = [why.translate("en") for _, why in median.reasons]
    assert [number for number, _ in median.reasons] == [2]
    assert "potion in a fight with allies" in shown[0]
