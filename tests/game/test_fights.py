"""Fights lead where the paragraph says: win, escape, assault limit, death."""

from __future__ import annotations

import pytest
from dedale import events
from dedale.game import Game
from dedale.language import load_book

from .conftest import BOOKS, of, play


@pytest.fixture(scope="module")
def arena():
    return load_book(BOOKS / "arena.dd")


def new(book):
    game = Game.new(book, 1, hero=(10, 20, 9), name="A", lang="en")
    return game


def test_escape_after_the_first_assault(arena):
    game = new(arena)
    # assault 1: troll 1+1+12=14, hero 6+6+10=22 -> the troll is wounded (no Luck);
    # escape: the troll wounds the fleeing hero (no Luck)
    game.rng.force([1, 1, 6, 6])
    items = play(game, [False, True, False])
    assert of(events.FightEnded, items)[0].outcome == "escaped"
    assert game.state.paragraph == 2 and game.outcome == "victory"
    assert game.state.hero.stats["STAMINA"] == 18


def test_assault_limit(arena):
    game = new(arena)
    game.rng.force([1, 1, 6, 6, 1, 1, 6, 6])
    items = play(game, [False, False, False, False])
    assert of(events.FightEnded, items)[0].outcome == "limit"
    assert game.state.paragraph == 3


def test_death_in_a_fight_ends_the_game(arena):
    game = Game.new(arena, 1, hero=(10, 2, 9), name="A", lang="en", free_stats=True)
    game.rng.force([6, 6, 1, 1])  # the troll wins the first assault: 2 damage
    items = play(game, [False])
    assert of(events.Death, items) and game.outcome == "death"
    assert game.state.in_fight is False
