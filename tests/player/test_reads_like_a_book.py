"""The player reads like the book (issue 16): stacked paragraphs keep their own numbers, the
choices say where they lead ("Rendez-vous au 7") for a French book or on ``--turn-to``, a
computed target is never printed, a list that changes while shown says so."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest
from dedale import events as ev
from dedale.player.app import DedaleApp
from dedale.player.options import show_targets
from dedale.player.screens.reading import ReadingScreen
from dedale.player.widgets.choices import ChoiceList
from fake_game import ScriptedGame, fake_book
from textual.widgets import Static

OPTIONS = (
    ev.ChoiceOption(index=1, text="Take the ladder", target=7),
    ev.ChoiceOption(index=2, text="Add your gold to 20 and turn there", target=25, computed=True),
    ev.ChoiceOption(index=3, text="", target=9),
)


def _book(lang: str):
    book = fake_book()
    return dataclasses.replace(book, meta=dataclasses.replace(book.meta, language=lang))


def _chain() -> list[ev.Event | ev.Prompt]:
    """§12 sends the reader on to §15 at once (a forced go-to): two paragraphs, one page."""
    return [
        ev.NamePrompt(default="Ari"),
        ev.ParagraphEntered(number=12),
        ev.TextShown(text="The rope snaps and you fall into the dark."),
        ev.ParagraphEntered(number=15),
        ev.TextShown(text="You land in a cellar full of barrels."),
        ev.ChoosePrompt(options=OPTIONS),
        ev.Victory(),
    ]


def _app(lang: str, **kwargs) -> DedaleApp:
    game = ScriptedGame(_chain())
    return DedaleApp(_book(lang), lambda book: game, lang=lang, **kwargs)


def _labels(app: DedaleApp) -> list[str]:
    choices = app.screen.query_one("#choices", ChoiceList)
    return [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]


async def _start(pilot) -> None:
    for key in ("1", "enter", "1"):  # new game, default name, start the adventure
        await pilot.press(key)
        await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_chain_of_paragraphs_keeps_each_number_above_its_text(snap_compare, size):
    assert snap_compare(_app("fr"), run_before=_start, terminal_size=size)


def test_each_stacked_paragraph_has_its_own_heading():
    app = _app("en")

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _start(pilot)
            heading = str(app.screen.query_one("#heading", Static).render())
            subs = [str(s.render()) for s in app.screen.query("#page .sub").results(Static)]
            assert heading.strip() == "§ 12"  # above the first paragraph's text
            assert subs == ["§ 15"]  # above the second one's

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("lang", "turn_to", "first", "blank"),
    [
        ("fr", None, "1. Take the ladder (rendez-vous au 7)", "3. Rendez-vous au 9"),
        ("fr", False, "1. Take the ladder", "3. Rendez-vous au 9"),
        ("en", None, "1. Take the ladder", "3. Turn to 9"),
        ("en", True, "1. Take the ladder (turn to 7)", "3. Turn to 9"),
    ],
)
def test_choices_say_where_they_lead_as_the_option_says(lang, turn_to, first, blank):
    app = _app(lang, turn_to=turn_to)

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _start(pilot)
            labels = _labels(app)
            assert labels[0] == first
            assert labels[1] == "2. Add your gold to 20 and turn there"  # computed: no number
            assert labels[2] == blank

    asyncio.run(scenario())


def test_the_option_follows_the_book_language():
    assert show_targets(None, "fr") and show_targets(None, "fr-CA")
    assert not show_targets(None, "en") and not show_targets(None, None)
    assert show_targets(True, "en") and not show_targets(False, "fr")


def test_a_choice_list_asked_again_is_kept_or_its_change_is_told():
    """After a meal the game asks the choice again: the same list stays as it is; a list that
    lost a choice (the meal used the provisions it needed) is not silently renumbered."""
    fewer = OPTIONS[:1] + OPTIONS[2:]
    game = ScriptedGame(
        [
            ev.NamePrompt(default="Ari"),
            ev.ParagraphEntered(number=3),
            ev.TextShown(text="A crossroads."),
            ev.ChoosePrompt(options=OPTIONS),
        ]
    )
    app = DedaleApp(_book("en"), lambda book: game, lang="en")

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _start(pilot)
            screen = app.screen
            assert isinstance(screen, ReadingScreen)
            screen.ask(ev.ChoosePrompt(options=OPTIONS))  # the same list again
            await pilot.pause()
            notes = [str(s.render()) for s in screen.query("#page .note").results(Static)]
            assert "The choices have changed." not in notes
            screen.ask(ev.ChoosePrompt(options=fewer))
            await pilot.pause()
            notes = [str(s.render()) for s in screen.query("#page .note").results(Static)]
            assert "The choices have changed." in notes
            assert _labels(app) == ["1. Take the ladder", "2. Turn to 9"]

    asyncio.run(scenario())
