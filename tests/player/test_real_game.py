"""The player over the real interpreter and the bundled tutorial book: saves, continue,
undo, --watch (a broken edit is reported in the app, a good one keeps the game)."""

from __future__ import annotations

import asyncio
import shutil

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.reading import ReadingScreen
from dedale.player.slots import SaveSlots


def _app(book_dir, saves, **options) -> DedaleApp:
    book = load_book(book_dir)
    slots = SaveSlots(saves, "tutorial")
    return DedaleApp(
        book,
        lambda b: Game.new(b, 7, name="Ariane", lang="en"),
        lang="en",
        slots=slots,
        **options,
    )


async def _start(pilot) -> None:
    await pilot.press("1")  # new game
    await pilot.pause()
    await pilot.press("1")  # start the adventure
    await pilot.pause()


async def _choose(pilot, times: int = 1) -> None:
    for _ in range(times):
        await pilot.press("1")
        await pilot.pause()


def test_save_load_and_continue(repo_root, tmp_path):
    async def scenario():
        app = _app(repo_root / "books" / "tutorial", tmp_path)
        async with app.run_test(size=(100, 30)) as pilot:
            await _start(pilot)
            await _choose(pilot, 2)
            assert app.session.paragraph == 3
            await pilot.press("ctrl+s", "2")  # slot 2
            await pilot.pause()
            assert (tmp_path / "tutorial" / "2.json").is_file()
            await _choose(pilot, 1)
            assert app.session.paragraph == 5
            await pilot.press("ctrl+l", "2")  # the saves shown: the autosave, then slot 2
            await pilot.pause()
            await pilot.pause()
            assert isinstance(app.screen, ReadingScreen)
            assert app.session.paragraph == 3
        again = _app(repo_root / "books" / "tutorial", tmp_path)
        async with again.run_test(size=(100, 30)) as pilot:
            await pilot.press("2")  # continue from the autosave
            await pilot.pause()
            await pilot.pause()
            assert again.session.paragraph == 3

    asyncio.run(scenario())


def test_playtest_undo_and_force_dice(repo_root, tmp_path):
    async def scenario():
        app = _app(repo_root / "books" / "tutorial", tmp_path, playtest=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await _start(pilot)
            await _choose(pilot, 2)
            assert app.session.paragraph == 3
            await pilot.press("u")
            await pilot.pause()
            assert app.session.paragraph == 2
            await pilot.press("f", *"6 6", "enter")
            await pilot.pause()
            assert app.session.game.rng is not None
            await pilot.press("t", *"SKILL 11", "enter")
            await pilot.pause()
            assert app.session.sheet.stats["SKILL"][0] == 11
            await pilot.press("j", *"8", "enter")
            await pilot.pause()
            await pilot.pause()
            assert app.session.paragraph == 8
            assert app.session.sheet.stats["SKILL"][0] == 11  # the state is kept
            await pilot.press("j", *"9999", "enter")
            await pilot.pause()
            assert app.session.paragraph == 8

    asyncio.run(scenario())


def test_god_mode_is_switched_in_the_game(repo_root, tmp_path):
    async def scenario():
        app = _app(repo_root / "books" / "tutorial", tmp_path, playtest=True)
        async with app.run_test(size=(100, 30)) as pilot:
            await _start(pilot)
            await pilot.press("g")
            await pilot.pause()
            game = app.session.game
            assert game.god_mode and game.decisions[-1] == {"action": "god", "on": True}
            await _choose(pilot, 3)  # the game goes on at the same choice
            assert app.session.paragraph == 5

    asyncio.run(scenario())


def test_watch_reports_a_broken_book_then_reloads(repo_root, tmp_path):
    book_dir = tmp_path / "book"
    shutil.copytree(repo_root / "books" / "tutorial", book_dir)

    async def scenario():
        app = _app(
            book_dir,
            tmp_path / "saves",
            watch_root=book_dir,
            reload_book=lambda: load_book(book_dir),
        )
        async with app.run_test(size=(100, 30)) as pilot:
            await _start(pilot)
            await _choose(pilot, 1)
            page = book_dir / "01-words.dd"
            good = page.read_text(encoding="utf-8")
            page.write_text(good + "\n# 9999\n> turn to nowhere at all\n", encoding="utf-8")
            app.check_book_changed()
            await app.workers.wait_for_complete()  # the reload runs in a worker
            await pilot.pause()
            assert app.load_error is not None and "01-words.dd" in app.load_error
            assert [n.severity for n in app._notifications] == ["error"]  # the toast shows
            assert app.session.paragraph == 2  # the game goes on
            page.write_text(good.replace("apprentice", "novice"), encoding="utf-8")
            app.check_book_changed()
            await app.workers.wait_for_complete()  # the reload runs in a worker
            await pilot.pause()
            await pilot.pause()
            assert app.load_error is None
            assert app.session.paragraph == 2
            shown = [(n.severity, n.message) for n in app._notifications]
            assert shown == [("information", "Book reloaded")]  # the error toast is gone

    asyncio.run(scenario())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_watch_the_error_toast_goes_when_the_book_loads_again(
    snap_compare, repo_root, tmp_path, size
):
    """The screen after a broken edit then its fix: the game goes on, only "reloaded" shows."""
    book_dir = tmp_path / "book"
    shutil.copytree(repo_root / "books" / "tutorial", book_dir)
    page = book_dir / "01-words.dd"
    good = page.read_text(encoding="utf-8")

    async def break_then_fix(pilot):
        app = pilot.app
        await _start(pilot)
        await _choose(pilot, 1)
        for text, broken in ((good + "\n# 9999\n> turn to nowhere at all\n", True), (good, False)):
            page.write_text(text, encoding="utf-8")
            app.start_reload()
            await app.workers.wait_for_complete()
            await pilot.pause()
            errors = [n for n in app._notifications if n.severity == "error"]
            assert (app.load_error is not None, len(errors)) == (broken, int(broken))
        await pilot.pause()

    # no watch_root: no timer; the reloads are started here, one at a time
    app = _app(book_dir, tmp_path / "saves", reload_book=lambda: load_book(book_dir))
    assert snap_compare(app, run_before=break_then_fix, terminal_size=size)
