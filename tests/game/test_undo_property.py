"""Property: rewinding to any step of the history gives exactly the game replayed to it."""

from __future__ import annotations

from pathlib import Path

from dedale import events
from dedale.game import Game
from dedale.game.random_player import RandomPlayer
from dedale.language import load_book
from hypothesis import given, settings
from hypothesis import strategies as st

BOOK = load_book(Path(__file__).parent / "books" / "trail.dd")
FIRST_STEPS = load_book(Path(__file__).resolve().parents[2] / "books" / "first-steps")


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    steps=st.integers(1, 40),
    pick=st.integers(0, 1000),
    first_steps=st.booleans(),
)
def test_rewind_equals_a_fresh_replay(seed, steps, pick, first_steps):
    book = FIRST_STEPS if first_steps else BOOK
    game = Game.new(book, seed, name="A")
    RandomPlayer(seed).play(game, max_steps=steps)
    history = list(game.state.history)
    index = pick % len(history)
    kept = history[index].decisions
    game.rewind_to(index)
    fresh = Game.new(book, seed, name="A")
    fresh.replay(game.decisions)
    assert game.decisions == fresh.decisions == game.decisions[:kept]
    assert game.snapshot() == fresh.snapshot()
    first = next(h for h in history if h.decisions == kept)
    entered = []
    while (item := game.next()) is not None and not isinstance(item, events.Prompt):
        if isinstance(item, events.ParagraphEntered):
            entered.append(item.number)
    assert entered[:1] == [first.paragraph]
