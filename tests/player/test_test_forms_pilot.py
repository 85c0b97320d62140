"""The Textual player over the test-forms book (issue 13 §6), driven by a Pilot: the
optional Skill test is a yes/no question naming the test, and declining it or not, the
repeated test's rolls, the conditional modifiers and the two compared rolls are shown on the
page."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.screens.prompts import YesNoScreen

TESTS_BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "tests"
# rope: 6+4 against SKILL 10 - 1: failure; gate: 5+6 fails, 3+3; bones: 2+6 (+1) against
# 6+5, lower; Luck: 5+5 against 9 + 1, lucky
DICE = [6, 4, 5, 6, 3, 3, 2, 6, 6, 5, 5, 5]


def _page(app: DedaleApp) -> list[str]:
    return [str(widget.content) for widget in app.screen.query("#page Static")]


def _play(lang: str, answer: str) -> dict[str, object]:
    book = load_book(TESTS_BOOK)

    def new_game(b) -> Game:
        game = Game.new(b, 1, hero=(10, 20, 9), name="Ari", lang=lang)
        game.rng.force(list(DICE))
        return game

    app = DedaleApp(book, new_game, lang=lang)
    seen: dict[str, object] = {}

    async def press(pilot, *keys: str) -> None:
        await pilot.press(*keys)
        await pilot.pause()

    async def scenario():
        async with app.run_test(size=(100, 40)) as pilot:
            await press(pilot, "1")  # new game
            await press(pilot, "1")  # start the adventure
            await press(pilot, "1")  # §1: pick up the dagger
            await press(pilot, "1")  # §2: climb down the rope
            assert isinstance(app.screen, YesNoScreen)
            seen["question"] = app.screen.question
            await press(pilot, answer)
            if answer == "n":  # the long path: the die is a 6
                seen["long_path"] = _page(app)
                await press(pilot, "1")
            seen["page"] = _page(app)
            await press(pilot, "enter")
            seen["ending"] = type(app.screen).__name__
            assert isinstance(app.screen, EndingScreen)
        seen["history"] = [entry.paragraph for entry in app.session.game.state.history]

    asyncio.run(scenario())
    return seen


def test_an_optional_test_is_asked_and_its_rolls_shown(snapshot):
    seen = _play("en", "y")
    assert seen["question"] == "Will you take the Skill test?"
    assert seen["history"] == [1, 2, 3, 5, 6, 8, 7]
    page = "\n".join(seen["page"])
    assert "Failed: you roll again." in page
    assert r"Your roll: \[2] \[6] = 8" in page
    assert "9 against 11: your roll is lower." in page
    assert page.count("A modifier counts on this roll: ") >= 2
    assert seen == snapshot


def test_declining_in_french(snapshot):
    seen = _play("fr", "n")
    assert seen["question"] == "Habileté\u00a0: tentez-vous le test\u202f?"
    assert seen["history"][:4] == [1, 2, 3, 4]
    assert seen == snapshot
