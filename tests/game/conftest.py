"""Helpers for the interpreter's tests: test books and a scripted driver."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale import events
from dedale.game import Game
from dedale.language import load_book

BOOKS = Path(__file__).parent / "books"


@pytest.fixture(scope="session")
def trail():
    """A small df-classic book exercising choices, costs, tests, tables, fights, meals."""
    return load_book(BOOKS / "trail.dd")


def play(game: Game, answers, limit: int = 500) -> list:
    """Pull everything, answering prompts from ``answers`` in order; returns all items."""
    answers = list(answers)
    seen = []
    for _ in range(limit):
        item = game.next()
        if item is None:
            return seen
        seen.append(item)
        if isinstance(item, events.Prompt):
            if not answers:
                return seen
            answer = answers.pop(0)
            if answer == "eat":
                seen.extend(game.eat())
            else:
                game.answer(answer)
    raise AssertionError("the game did not stop")


def of(kind, items):
    return [item for item in items if isinstance(item, kind)]
