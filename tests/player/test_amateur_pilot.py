"""The Textual player over the amateur test book (issue 8), driven by a Pilot: the
hidden-number question is typed into its input, statuses and the book's own MAGIC stat
appear on the Adventure Sheet, computed destinations are followed to the victory."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.widgets.adventure_sheet import render_sheet
from rich.console import Console

AMATEUR = Path(__file__).resolve().parents[1] / "books_extra" / "amateur"
# the spectre's fight (two assaults won, MAGIC 14 against 6); 4d6 test: 12 <= 19; table: 2 (4 gold);
# MAGIC test: 9; the wager's die: 5 (won)
VICTORY_DICE = [*(1, 1, 3, 3, 1, 1, 6, 6, 2) * 2, 1, 1, 6, 2, 2, 6, 3, 5]


def _new_game(book, lang: str) -> Game:
    game = Game.new(book, 1, hero=(10, 20, 9, 8), name="Ari", lang=lang)
    game.rng.force(VICTORY_DICE)
    return game


def _sheet_text(app: DedaleApp) -> str:
    console = Console(width=60, record=True, color_system=None)
    session = app.session
    console.print(render_sheet(session.sheet, app.texts, app.stat_name))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def _play(lang: str) -> dict[str, object]:
    book = load_book(AMATEUR)
    app = DedaleApp(book, lambda b: _new_game(b, lang), lang=lang)
    seen: dict[str, object] = {}

    async def press(pilot, *keys: str) -> None:
        await pilot.press(*keys)
        await pilot.pause()

    async def scenario():
        async with app.run_test(size=(100, 32)) as pilot:
            await press(pilot, "1")  # new game
            await press(pilot, "1")  # start the adventure
            await press(pilot, "1")  # §1 -> the door
            assert app.session.paragraph == 2
            await press(pilot, *"7", "enter")  # a wrong number: "nothing happens"
            assert app.session.paragraph == 3
            await press(pilot, "1")  # [previous]: back to the door
            assert app.session.paragraph == 2
            await press(pilot, *"24", "enter")  # C+A+T = 3+1+20
            assert app.session.paragraph == 24
            await press(pilot, "1")  # §24 -> §5 (poisoned, a fight with MAGIC)
            await press(pilot, "1")  # §5 is read first: Fight
            await press(pilot, "n")  # no Luck on the wound (n: no / non)
            await press(pilot, "n")  # the second assault won: "after 2 assaults won"
            await press(pilot, "enter")  # leave the fight screen: §6
            assert app.session.paragraph == 6
            seen["sheet_at_6"] = _sheet_text(app)
            await press(pilot, "1")  # [key + 20] -> §70 -> §9
            assert app.session.paragraph == 9
            await press(pilot, "1")  # the shop: buy a herb
            await press(pilot, "3")  # leave the shop
            await press(pilot, *"2", "enter")  # bet 2 gold
            seen["sheet_at_9"] = _sheet_text(app)
            await press(pilot, "2")  # [paragraph × 10] -> §90, victory
            await press(pilot, "enter")
            seen["ending"] = type(app.screen).__name__
            assert isinstance(app.screen, EndingScreen)
        seen["outcome"] = app.session.outcome
        seen["history"] = [entry.paragraph for entry in app.session.game.state.history]

    asyncio.run(scenario())
    return seen


def test_amateur_book_played_in_the_textual_player(snapshot):
    seen = _play("en")
    assert seen["outcome"] == "victory"
    assert "Poisoned" in seen["sheet_at_6"] and "MAGIC" in seen["sheet_at_6"]
    assert "Poisoned" not in seen["sheet_at_9"]  # cured at the herbalist's
    assert seen == snapshot


def test_amateur_book_in_french(snapshot):
    seen = _play("fr")
    assert seen["outcome"] == "victory"
    assert "États" in seen["sheet_at_6"] and "MAGIE" in seen["sheet_at_6"]
    assert seen == snapshot
