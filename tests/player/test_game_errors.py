"""The Textual player survives a book that stops the game (a GameError mid-game) and a
--watch edit that makes the reload run forever (issue 11.2): the app stays responsive."""

from __future__ import annotations

import asyncio
import shutil
import time

from dedale.errors import GameError
from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.game_error import GameErrorScreen
from dedale.player.screens.reading import ReadingScreen
from dedale.player.screens.title import TitleScreen
from dedale.player.slots import AUTOSAVE, SaveSlots
from dedale.span import Span


class StoppingGame(Game):
    """A real game whose book stops it after the first choice (as a forced loop would)."""

    def next(self):
        if len(self.decisions) >= 1:
            raise GameError(
                "paragraphs 2 → 9 → 2 loop with nothing to decide",
                Span("book/01-words.dd", 12, 1),
                hint="give one of them a choice",
            )
        return super().next()


def test_a_game_error_mid_game_shows_where_and_keeps_the_autosave(repo_root, tmp_path):
    book = load_book(repo_root / "books" / "tutorial")
    slots = SaveSlots(tmp_path, "tutorial")

    def new_game(b):
        game = Game.new(b, 7, name="Ariane", lang="en")
        game.__class__ = StoppingGame
        return game

    app = DedaleApp(book, new_game, lang="en", slots=slots)

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            for key in ("1", "1"):  # new game, start
                await pilot.press(key)
                await pilot.pause()
            assert isinstance(app.screen, ReadingScreen)
            saved = slots.path(AUTOSAVE).read_bytes()
            await pilot.press("1")  # the choice after which the book stops the game
            await pilot.pause()
            assert isinstance(app.screen, GameErrorScreen)
            shown = str(app.screen.query_one("#game-error-text").render())
            assert "book/01-words.dd:12:1" in shown and "loop with nothing to decide" in shown
            assert slots.path(AUTOSAVE).read_bytes() == saved
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)

    asyncio.run(scenario())


def test_a_reload_that_never_ends_is_abandoned_and_q_still_answers(repo_root, tmp_path):
    book_dir = tmp_path / "book"
    shutil.copytree(repo_root / "books" / "tutorial", book_dir)

    def endless_reload():  # as a book whose replay loops on forced jumps would
        while True:
            load_book(book_dir)

    app = DedaleApp(
        load_book(book_dir),
        lambda b: Game.new(b, 7, name="Ariane", lang="en"),
        lang="en",
        slots=SaveSlots(tmp_path / "saves", "tutorial"),
        watch_root=book_dir,
        reload_book=endless_reload,
    )
    app.reload_seconds = 2.0

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            for key in ("1", "1", "1"):
                await pilot.press(key)
                await pilot.pause()
            paragraph = app.session.paragraph
            started = time.monotonic()
            app.start_reload()
            await pilot.pause()
            await pilot.press("s")  # the UI answers while the reload runs
            await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert time.monotonic() - started < 10
            assert not app.reloading
            assert "abandoned" in (app.load_error or "")
            assert app.session.paragraph == paragraph  # the game goes on, unchanged
            await pilot.press("q")
            await pilot.pause()
        assert app.return_code == 0

    asyncio.run(scenario())


def test_an_edit_that_makes_a_forced_loop_does_not_freeze_the_app(repo_root, tmp_path):
    book_dir = tmp_path / "book"
    shutil.copytree(repo_root / "books" / "tutorial", book_dir)
    app = DedaleApp(
        load_book(book_dir),
        lambda b: Game.new(b, 7, name="Ariane", lang="en"),
        lang="en",
        slots=SaveSlots(tmp_path / "saves", "tutorial"),
        watch_root=book_dir,
        reload_book=lambda: load_book(book_dir),
    )
    app.reload_seconds = 2.0

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            for key in ("1", "1", "1"):  # new game, start, into paragraph 2
                await pilot.press(key)
                await pilot.pause()
            assert app.session.paragraph == 2
            page = book_dir / "01-words.dd"
            text = page.read_text(encoding="utf-8")
            page.write_text(text.replace("-> hall Walk into the great hall", "> go to 2"))
            started = time.monotonic()
            app.check_book_changed()
            await app.workers.wait_for_complete()
            await pilot.pause()
            await app.workers.wait_for_complete()  # a fallback may pump the game once more
            await pilot.pause()
            assert time.monotonic() - started < 15
            # abandoned past the deadline, or refused by the interpreter's own loop bound
            # (reported as the reload's error, or on the error screen)
            error = app.load_error or ""
            assert (
                "abandoned" in error
                or "loop with nothing to decide" in error
                or isinstance(app.screen, GameErrorScreen)
            )
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(scenario())


def test_a_crash_in_the_app_exits_non_zero_and_keeps_the_autosave(repo_root, tmp_path):
    book = load_book(repo_root / "books" / "tutorial")
    slots = SaveSlots(tmp_path, "tutorial")
    app = DedaleApp(
        book, lambda b: Game.new(b, 7, name="Ariane", lang="en"), lang="en", slots=slots
    )
    saved: list[bytes] = []

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            for key in ("1", "1"):
                await pilot.press(key)
                await pilot.pause()
            saved.append(slots.path(AUTOSAVE).read_bytes())

            def broken():
                raise RuntimeError("a bug in the player")

            app.session.game.next = broken
            await pilot.press("1")
            await pilot.pause()

    try:
        asyncio.run(scenario())
    except RuntimeError:
        pass  # run_test re-raises the app's exception for the test
    assert app.return_code == 1
    assert slots.path(AUTOSAVE).read_bytes() == saved[0]


def test_run_player_reports_a_crash_with_exit_70(monkeypatch, capsys, tmp_path):
    import argparse

    from dedale.player import app as app_module

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))

    class Crashed:
        startup_error = None
        return_code = 1
        _exception = RuntimeError("a bug in the player")
        session = None

        def run(self):
            return None

    monkeypatch.setattr("dedale.player.launch.build_app", lambda args: Crashed())
    assert app_module.run_player(argparse.Namespace()) == 70
    err = capsys.readouterr().err
    assert "bug in Dédale" in err and "Reporting a bug" in err
    assert list(tmp_path.glob("dedale-crash-*.txt"))
