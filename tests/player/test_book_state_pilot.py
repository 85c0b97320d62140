"""The Textual player over the book-state test book (issue 13 §4), driven by a Pilot: the
calf that follows shows in the sheet's notes until it stays in the stable, the lieutenants
met count among the stats, and the hidden flags never show."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.widgets.adventure_sheet import render_sheet
from rich.console import Console

STATE = Path(__file__).resolve().parents[1] / "books_extra" / "state"


def _sheet_text(app: DedaleApp) -> str:
    console = Console(width=60, record=True, color_system=None)
    console.print(render_sheet(app.session.sheet, app.texts, app.stat_name))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def _play(lang: str) -> dict[str, object]:
    book = load_book(STATE)
    app = DedaleApp(book, lambda b: Game.new(b, 1, hero=(10, 20, 9), name="Ari", lang=lang),
                    lang=lang)  # fmt: skip
    seen: dict[str, object] = {}

    async def press(pilot, *keys: str) -> None:
        await pilot.press(*keys)
        await pilot.pause()

    async def scenario():
        async with app.run_test(size=(100, 32)) as pilot:
            await press(pilot, "1")  # new game
            await press(pilot, "1")  # start the adventure
            await press(pilot, "1")  # §1: the calf follows
            seen["sheet_at_2"] = _sheet_text(app)
            await press(pilot, "1")  # §2 -> the gate
            await press(pilot, "1")  # §3 -> the courtyard
            await press(pilot, "1")  # the west corridor
            await press(pilot, "1")  # back
            await press(pilot, "1")  # the east corridor
            await press(pilot, "1")  # back
            seen["sheet_at_10"] = _sheet_text(app)
            await press(pilot, "1")  # the stable: the calf stays
            await press(pilot, "1")  # back
            seen["sheet_after_stable"] = _sheet_text(app)
            await press(pilot, "1")  # the inner door
            await press(pilot, "1")  # name the lieutenants
            await press(pilot, "enter")
            assert isinstance(app.screen, EndingScreen)
        seen["outcome"] = app.session.outcome
        seen["history"] = [entry.paragraph for entry in app.session.game.state.history]

    asyncio.run(scenario())
    return seen


def test_state_book_played_in_the_textual_player(snapshot):
    seen = _play("en")
    assert seen["outcome"] == "victory"
    assert "A calf follows you" in seen["sheet_at_2"] and "Notes" in seen["sheet_at_2"]
    assert "Lieutenants met 2" in " ".join(str(seen["sheet_at_10"]).split())
    after = " ".join(str(seen["sheet_after_stable"]).split())
    assert "Lieutenants met 3" in after and "calf" not in after and "Notes" not in after
    assert "searched" not in str(seen).replace("'", "")  # hidden flags stay off the sheet
    assert seen == snapshot


def test_state_book_in_french(snapshot):
    seen = _play("fr")
    assert seen["outcome"] == "victory"
    assert "Notes" in seen["sheet_at_2"] and "Caractéristiques" not in seen["sheet_at_2"]
    assert seen == snapshot


def test_the_narration_phrases_flags_and_counters():
    from dedale import events
    from dedale.player.narration import describe
    from dedale.player.texts import Texts

    for lang, noted, count in (("en", "Noted: A calf", "Met: 1 → 2"),
                               ("fr", "Noté\u00a0: A calf", "Met\u00a0: 1 → 2")):  # fmt: skip
        texts = Texts(lang)
        shown = describe(events.MessageShown(key="flag_set", params=(("flag", "A calf"),)),
                         texts, str)  # fmt: skip
        assert shown is not None and noted in shown
        params = (("name", "Met"), ("old", 1), ("new", 2))
        shown = describe(events.MessageShown(key="count_changed", params=params), texts, str)
        assert shown is not None and count in shown
