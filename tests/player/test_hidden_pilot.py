"""The Textual player over the hidden-number test book (issue 13.1), driven by a Pilot: the
prompt is one option among the choices, taking it asks the number in a modal input; a
number of another puzzle is refused and the choices come back; the right one opens the
bell's stair."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.widgets.choices import ChoiceList

HIDDEN = Path(__file__).resolve().parents[1] / "books_extra" / "hidden"


def _play(lang: str) -> dict[str, object]:
    book = load_book(HIDDEN)
    app = DedaleApp(
        book, lambda b: Game.new(b, 1, hero=(10, 20, 9), name="Ari", lang=lang), lang=lang
    )
    seen: dict[str, object] = {}

    async def press(pilot, *keys: str) -> None:
        await pilot.press(*keys)
        await pilot.pause()

    async def scenario():
        async with app.run_test(size=(100, 32)) as pilot:
            await press(pilot, "1")  # new game
            await press(pilot, "1")  # start the adventure
            await press(pilot, "1")  # §1 -> the courtyard
            assert app.session.paragraph == 2
            seen["options"] = [o.text for o in app.session.prompt.options]
            await press(pilot, "1")  # the prompt: a modal asks the number
            seen["modal"] = type(app.screen).__name__
            await press(pilot, *"56", "enter")  # the dial's number: not this puzzle's
            assert app.session.paragraph == 2
            seen["back_to_choices"] = type(app.session.prompt).__name__
            seen["choices_shown"] = bool(app.screen.query(ChoiceList))
            await press(pilot, "1")
            await press(pilot, "escape")  # escape: back to the choices, nothing lost
            seen["escaped"] = (app.session.paragraph, type(app.session.prompt).__name__)
            await press(pilot, "1")
            await press(pilot, *"40", "enter")  # the bell: seven saints and 33
            assert app.session.paragraph == 40
            await press(pilot, "1")  # down the stair: victory
            await press(pilot, "enter")
            seen["ending"] = isinstance(app.screen, EndingScreen)
        seen["outcome"] = app.session.outcome
        seen["history"] = [entry.paragraph for entry in app.session.game.state.history]

    asyncio.run(scenario())
    return seen


def test_the_hidden_number_prompt_in_the_textual_player():
    seen = _play("en")
    assert seen["options"][0] == "If you know where the bell sends you, turn to that number"
    assert seen["modal"] == "AskScreen"
    assert seen["back_to_choices"] == "ChoosePrompt" and seen["choices_shown"]
    assert seen["escaped"] == (2, "ChoosePrompt")
    assert seen["ending"] and seen["outcome"] == "victory"
    assert seen["history"] == [1, 2, 40, 6]


def test_in_french():
    seen = _play("fr")
    assert seen["modal"] == "AskScreen"
    assert seen["history"] == [1, 2, 40, 6]
