"""The save and load lists (issue 16.9): each slot shows the paragraph, the hero, the date
and time of the save and a short description; the load list shows only the saves there are,
numbered as shown, so key 2 loads the second one."""

from __future__ import annotations

import asyncio
import os
import time
from datetime import datetime

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.prompts import PickScreen
from dedale.player.slot_summary import SlotSummary, describe_paragraph, read_summary, slot_label
from dedale.player.slots import AUTOSAVE, SaveSlots
from dedale.player.texts import Texts
from dedale.player.widgets.choices import ChoiceList

SAVED_AT = datetime(2026, 3, 14, 9, 26).timestamp()  # local time: TZ is set to UTC below


@pytest.fixture
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def _app(repo_root, tmp_path, lang: str = "fr") -> DedaleApp:
    book = load_book(repo_root / "books" / "first-steps")
    return DedaleApp(
        book,
        lambda b: Game.new(b, 7, hero=(10, 20, 9), name="Ariane", lang=lang),
        lang=lang,
        slots=SaveSlots(tmp_path, "first-steps"),
    )


async def _two_saves(pilot) -> None:
    """Slot 3 holds §1; then the reader goes to the store (§3), which the autosave holds."""
    app = pilot.app
    for key in ("1", "enter"):  # new game, start the adventure (the hero is given)
        await pilot.press(key)
        await pilot.pause()
    app.save_to("3")
    await pilot.press("2")  # stop at the village store
    await pilot.pause()
    os.utime(app.slots.path("3"), (SAVED_AT, SAVED_AT))
    os.utime(app.slots.path(AUTOSAVE), (SAVED_AT + 3600, SAVED_AT + 3600))
    app.clear_notifications()
    await pilot.pause()


def _labels(screen) -> list[str]:
    choices = screen.query_one(ChoiceList)
    return [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_load_list_shows_what_each_save_holds(snap_compare, repo_root, tmp_path, utc, size):
    async def open_load_list(pilot):
        await _two_saves(pilot)
        await pilot.press("ctrl+l")
        await pilot.pause()

    app = _app(repo_root, tmp_path)
    assert snap_compare(app, run_before=open_load_list, terminal_size=size)


def test_key_2_loads_the_second_save_shown(repo_root, tmp_path, utc):
    app = _app(repo_root, tmp_path, lang="en")

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _two_saves(pilot)
            assert app.session.paragraph == 3
            await pilot.press("ctrl+l")
            await pilot.pause()
            assert isinstance(app.screen, PickScreen)
            assert _labels(app.screen) == [
                "1. Autosave — § 3 · Ariane\n   saved 2026-03-14 at 10:26 · store",
                "2. Slot 3 — § 1 · Ariane\n   saved 2026-03-14 at 09:26 · start",
            ]
            await pilot.press("2")
            await pilot.pause()
            assert app.session.paragraph == 1  # slot 3, the second one shown

    asyncio.run(scenario())


def test_the_save_list_shows_every_slot_empty_or_not(repo_root, tmp_path, utc):
    app = _app(repo_root, tmp_path, lang="en")

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _two_saves(pilot)
            await pilot.press("ctrl+s")
            await pilot.pause()
            labels = _labels(app.screen)
            assert len(labels) == 5 and labels[0] == "1. Slot 1 (empty)"
            assert labels[2].startswith("3. Slot 3 — § 1 · Ariane\n")

    asyncio.run(scenario())


def test_no_save_yet_says_so(repo_root, tmp_path):
    app = _app(repo_root, tmp_path, lang="en")

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.action_load()
            await pilot.pause()
            assert not isinstance(app.screen, PickScreen)
            assert [n.message for n in app._notifications] == ["No saved game yet."]

    asyncio.run(scenario())


def test_a_broken_save_is_shown_unreadable_and_descriptions_are_short(repo_root, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "dedale-save", "version": 1, "book": [', encoding="utf-8")
    book = load_book(repo_root / "books" / "first-steps")
    summary = read_summary(broken, book)
    assert summary is not None and not summary.readable
    assert read_summary(tmp_path / "none.json", book) is None
    texts = Texts("fr")
    assert slot_label("Emplacement 2", summary, texts) == "Emplacement 2 (sauvegarde illisible)"
    assert describe_paragraph(book, 1) == "start"  # the label, when the paragraph has one
    assert describe_paragraph(book, 999) == "" and describe_paragraph(None, 1) == ""
    hero = SlotSummary(12, "[b]Ari[/b]", None, "")
    assert slot_label("Slot 1", hero, Texts("en")) == r"Slot 1 — § 12 · \[b]Ari\[/b]"


def test_a_paragraph_with_no_label_is_described_by_its_first_words(tmp_path):
    path = tmp_path / "short.dd"
    path.write_text(
        "---\ntitle: Short\nruleset: df-classic\nstart: 1\n---\n§ 1\n"
        "The **rope** snaps and you fall into the dark, far below the well.\n> victory\n",
        encoding="utf-8",
    )
    book = load_book(path)
    assert describe_paragraph(book, 1) == "The rope snaps and you fall into the…"
