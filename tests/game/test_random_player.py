"""The random tester is deterministic for (game seed, player seed) and eats when hurt."""

from __future__ import annotations

from dedale.game import EAT_ACTION, Game
from dedale.game.random_player import RandomPlayer, play_random


def test_same_seeds_same_game(trail):
    first = play_random(trail, 5, 9)[1]
    second = play_random(trail, 5, 9)[1]
    assert first.decisions == second.decisions and first.paragraphs == second.paragraphs
    assert first.outcome in ("victory", "death")


def test_it_eats_when_hurt_where_allowed(trail):
    ate = 0
    for seed in range(40):
        game = Game.new(trail, seed, hero=(10, 20, 9), name="A", quiet=True)
        game.next()
        game.answer(1)  # to the pedlar, where meals are allowed
        game.next()
        game.state.hero.change("STAMINA", -10)
        result = RandomPlayer(seed, eat_chance=1.0).play(game, max_steps=2)
        ate += EAT_ACTION in result.decisions
    assert ate == 40


def test_step_limit(trail):
    game = Game.new(trail, 1, hero=(10, 20, 9), name="A")
    result = RandomPlayer(1).play(game, max_steps=1)
    assert result.stopped and result.outcome is None and result.choices == 1
