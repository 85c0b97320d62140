"""The Textual fight screen of a fight against two enemies at once (tests/books_extra/at_once)
gives the exact best-Luck chance of the fight (the array table), not the no-Luck floor it
fell back to when the best-Luck odds were past their budget (issue 14.1, 14.4)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.odds import percentage
from dedale.player.screens.fight import FightScreen
from dedale.rules import fight_odds
from textual.widgets import Static

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "at_once" / "book.dd"
DICE = [1, 2, 6, 5, 1, 1, 1, 1, 1, 1, 6, 6, 1, 2]


def test_the_fight_screen_gives_the_exact_best_luck_chance_of_a_fight_at_once():
    book = load_book(BOOK)

    def new_game(book):
        game = Game.new(book, 1, hero=(8, 14, 9), name="Ari", lang="en")
        game.rng.force(DICE)
        return game

    app = DedaleApp(book, new_game, lang="en")
    seen: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(110, 36)) as pilot:
            for key in ("1", "1"):  # new game, start: the fight's paragraph
                await pilot.press(key)
                await pilot.pause()
            for _ in range(5):
                fight = next((s for s in app.screen_stack if isinstance(s, FightScreen)), None)
                if fight is not None:
                    seen.append(str(fight.query_one("#odds", Static).render()))
                    break
                await pilot.press("1")
                await pilot.pause()

    asyncio.run(scenario())
    (text,) = seen
    exact = fight_odds(
        book.ruleset, 8, 14, [(8, 4), (7, 4)], luck=9, luck_policy="best", mode="together"
    )
    assert text == f"Chance of winning: {percentage(exact.win_probability, 'en')}"
