"""Hostile typing in the players (issues 11.12, 11.13): pasted junk in modals, "²" and
5,000-digit numbers in the boxes; never a crash, never Python's own messages."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest
from dedale import events as ev
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import PlainPlayer
from dedale.player.app import DedaleApp
from dedale.player.screens.prompts import AskScreen
from dedale.player.screens.reading import ReadingScreen
from dedale.player.slots import SaveSlots
from dedale.typed import TypedValueError, name_and_number, whole_number, whole_numbers
from textual.events import Key
from textual.widgets import Input, Static

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "books" / "tutorial"
TRAIL = ROOT / "tests" / "game" / "books" / "trail.dd"


def _player_tests_path() -> None:
    import sys

    folder = str(ROOT / "tests" / "player")
    if folder not in sys.path:
        sys.path.insert(0, folder)


@pytest.mark.parametrize("typed", ["²", "٣", "1e3", "", " ", "--1", "9" * 5000, "0x10", "½"])
def test_whole_number_refuses_what_int_would_choke_on(typed):
    with pytest.raises(TypedValueError) as raised:
        whole_number(typed)
    assert "int()" not in str(raised.value.message)


def test_whole_number_ranges_and_helpers():
    assert whole_number(" 12 ") == 12 and whole_number("-3") == -3
    with pytest.raises(TypedValueError, match="from 1 to 6"):
        whole_number("7", 1, 6)
    assert whole_numbers("6, 6 1", 1, 6) == [6, 6, 1]
    with pytest.raises(TypedValueError, match="too many"):
        whole_numbers("1 " * 50)
    assert name_and_number("HABILETÉ 11") == ("HABILETÉ", 11)
    with pytest.raises(TypedValueError):
        name_and_number("SKILL ²")


def test_pasting_junk_in_a_yes_no_modal_answers_once():
    _player_tests_path()
    from fake_game import ScriptedGame, fake_book

    game = ScriptedGame(
        [
            ev.NamePrompt(default="Thésée"),
            ev.ParagraphEntered(number=1),
            ev.YesNoPrompt(kind="escape"),
            ev.ChoosePrompt(options=(ev.ChoiceOption(index=4, text="Onwards", target=8),)),
            ev.Victory(),
        ]
    )
    app = DedaleApp(fake_book(), lambda book: game, lang="en")

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("1")
            await pilot.pause()
            await pilot.press("enter")  # the default name
            await pilot.pause()
            await pilot.press("1")  # start
            await pilot.pause()
            modal = app.screen
            for key in "ynynyn12yn21":  # a paste: all the keys queued before any is handled
                modal.post_message(Key(key, key))
            await pilot.pause()
            await pilot.pause()

    asyncio.run(scenario())
    assert game.answers == ["Thésée", True]  # one answer; the rest of the paste is ignored


def test_closing_help_twice_quickly_does_not_pop_the_game():
    _player_tests_path()
    from fake_game import FakeGame, fake_book

    app = DedaleApp(fake_book(), FakeGame, lang="en")

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            under = app.screen
            await pilot.press("question_mark")
            await pilot.pause()
            help_screen = app.screen
            for _ in range(3):  # escape, escape, escape before the screen has closed
                help_screen.call_next(help_screen.action_dismiss)
            await pilot.pause()
            await pilot.pause()
            assert app.screen is under

    asyncio.run(scenario())


def _tutorial_app(tmp_path) -> DedaleApp:
    book = load_book(TUTORIAL)
    return DedaleApp(
        book,
        lambda b: Game.new(b, 7, name="Ariane", lang="en"),
        lang="en",
        slots=SaveSlots(tmp_path, "tutorial"),
        playtest=True,
    )


@pytest.mark.parametrize(
    ("key", "typed", "expected"),
    [
        ("j", "²", "type a whole number"),
        ("j", "9" * 5000, "too long"),
        ("t", "SKILL ²", "type a whole number"),
        ("t", "SKILL " + "9" * 5000, "too long"),
        ("f", "6 ²", "from 1 to 1000"),
        ("f", "9" * 5000, "too long"),
    ],
)
def test_playtest_boxes_refuse_bad_numbers_and_stay_open(tmp_path, key, typed, expected):
    app = _tutorial_app(tmp_path)

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("1")
            await pilot.pause()
            await pilot.press("1")
            await pilot.pause()
            paragraph = app.session.paragraph
            stats = dict(app.session.sheet.stats)
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, AskScreen)
            app.screen.query_one(Input).value = typed
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, AskScreen)  # still asking, with the reason
            assert expected in str(app.screen.query_one(".problem", Static).render())
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ReadingScreen)
            assert app.session.paragraph == paragraph
            assert app.session.sheet.stats == stats

    asyncio.run(scenario())


@pytest.mark.parametrize("typed", ["²", "9" * 5000, "½", "1²"])
def test_plain_player_never_shows_pythons_messages(typed):
    book = load_book(TRAIL)
    game = Game.new(book, 7, hero=(10, 20, 9), name="Ari", lang="en")
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(f"{typed}\nquit\n"), out, echo=True).play()
    text = out.getvalue()
    assert code == 4
    assert "Not possible:" in text
    assert "invalid literal" not in text and "int()" not in text and "Exceeds" not in text
