"""A choice written with no text (``-> 12``) shows "Turn to 12" / "Rendez-vous au 12" in the
Textual player (docs/language.md §4), on the reading screen and in the choice modal."""

from __future__ import annotations

import asyncio

import pytest
from dedale import events as ev
from dedale.player.app import DedaleApp
from dedale.player.screens.prompts import ask_in_modal
from dedale.player.widgets.choices import ChoiceList
from fake_game import ScriptedGame, fake_book

OPTIONS = (
    ev.ChoiceOption(index=1, text="", target=12),
    ev.ChoiceOption(index=2, text="Go right", target=3),
)


def _labels(choices: ChoiceList) -> list[str]:
    return [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]


@pytest.mark.parametrize(("lang", "expected"), [("en", "Turn to 12"), ("fr", "Rendez-vous au 12")])
def test_reading_screen_and_modal_show_where_a_bare_choice_goes(lang, expected):
    game = ScriptedGame(
        [
            ev.NamePrompt(default="Ari"),
            ev.ParagraphEntered(number=1),
            ev.TextShown(text="A fork."),
            ev.ChoosePrompt(options=OPTIONS),
            ev.Victory(),
        ]
    )
    app = DedaleApp(fake_book(), lambda book: game, lang=lang)

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            for key in ("1", "enter", "1"):
                await pilot.press(key)
                await pilot.pause()
            labels = _labels(app.screen.query_one("#choices", ChoiceList))
            assert labels[0] == f"1. {expected}"
            assert labels[1] == "2. Go right"
            ask_in_modal(app, ev.ChoosePrompt(options=OPTIONS))  # the modal form of a choice
            await pilot.pause()
            assert _labels(app.screen.query_one(ChoiceList))[0] == f"1. {expected}"

    asyncio.run(scenario())
