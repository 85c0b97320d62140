"""The book's potion inside a fight with exits on the path of fights (issue 14.4): two
Healing Draughts (when STAMINA falls to 4: gain 6) held through an ogre fought until
"STAMINA falls to 3 or less" or 8 assaults — the potion acts after each assault before the
threshold, and on a mortal wound — then a goblin. Checked against the real interpreter
(seeded dice, no Luck) within 3 standard errors, and against the chain without the potion
counted in the fight."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import validate_path
from dedale.validator.fight_path_chain import HeroChain
from dedale.validator.fight_path_counters import LocalCounters
from dedale.validator.fight_path_steps import Segments
from dedale.validator.fights import fight_reports, hero_profiles
from dedale.validator.graph import build_graph

from tests.validator.seeded_paths import assert_within_3_se, ff_values, victory_rate

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
BOOK = BOOK / "path-potion-in-exit-fight.dd"


def _chain(book, hero):
    graph = build_graph(book)
    segments = Segments(book.ruleset, book)
    steps = []
    for number, target in ((1, 2), (2, 3), (3, 4)):
        node = graph.nodes[number]
        steps += segments.of(node, next(e for e in node.edges if e.target == target))
    reports = {r.fight.span: r for r in fight_reports(graph, book)}
    chain = HeroChain(
        book.ruleset, hero, "none", reports, potion=segments.potions.potion,
        doses=segments.potions.start_doses(book), local=LocalCounters(book),
    )  # fmt: skip
    return tuple(steps), chain


@pytest.mark.parametrize("level", ["weakest"])
def test_the_potion_in_the_fight_agrees_with_the_real_interpreter_within_3_se(level):
    book = load_book(BOOK)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == level)
    steps, chain = _chain(book, hero)
    result = chain.best(steps)
    assert result.exact, result.reasons
    exact = result.win
    runs = 2000
    played = victory_rate(book, ff_values(hero), runs, steps=500)
    assert 0.05 < exact < 0.95
    assert_within_3_se(played, exact, runs)


def test_without_the_potion_in_the_fight_the_figure_differs_and_is_approximate(monkeypatch):
    """The same chain with the potion's use inside the ogre fight refused (the old
    behaviour: it acts only once the fight is over) says why, and differs: here it is
    higher, since a potion drunk before the threshold keeps the hero in a fight he loses
    (the interpreter agrees with the exact figure, above)."""
    from dedale.validator import fight_path_group_potion as module

    book = load_book(BOOK)
    hero = next(h for h in hero_profiles(book.ruleset) if h.level == "weakest")
    steps, chain = _chain(book, hero)
    exact = chain.best(steps).win
    refused = module.tr("the book's potion in a fight with exits: its use is not counted")
    monkeypatch.setattr(module, "potion_reason", lambda fight, potion: refused)
    steps, chain = _chain(book, hero)
    result = chain.best(steps)
    assert not result.exact and result.reasons[0][0] == 2
    assert result.win > exact + 0.01


def test_the_validator_counts_the_potion_in_the_fight():
    fight_path = validate_path(BOOK, runs=0).fight_path
    assert fight_path.potion == "Healing Draughts"
    assert all(hero.exact for hero in fight_path.heroes)
