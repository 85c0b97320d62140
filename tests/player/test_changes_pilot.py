"""The Textual player over the state-changes test book (issue 13 §7), driven by a Pilot:
the optional pick-ups are yes/no questions, the inventory limit asks which item to leave,
an item is dropped at will from the full Adventure Sheet (``d``), the penalty until a
weapon shows on the sheet and goes when the pick axe is found, the phoenix tears save the
hero in the troll's fight, the shop sells Provisions, the wager is on a watched fight."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.widgets.adventure_sheet import render_sheet
from rich.console import Console

CHANGES = Path(__file__).resolve().parents[1] / "books_extra" / "changes"
DICE = [*(6, 6, 1, 1) * 2, *(1, 1, 6, 6) * 2, *(1, 1, 6, 6) * 2]  # as tests/test_changes_plain


def _new_game(book, lang: str) -> Game:
    game = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang=lang)
    game.rng.force(DICE)
    return game


def _sheet_text(app: DedaleApp) -> str:
    console = Console(width=70, record=True, color_system=None)
    console.print(render_sheet(app.session.sheet, app.texts, app.stat_name))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def _play(lang: str) -> dict[str, object]:
    book = load_book(CHANGES)
    app = DedaleApp(book, lambda b: _new_game(b, lang), lang=lang)
    seen: dict[str, object] = {}

    async def press(pilot, *keys: str) -> None:
        await pilot.press(*keys)
        await pilot.pause()

    async def scenario():
        async with app.run_test(size=(100, 32)) as pilot:
            await press(pilot, "1")  # new game
            await press(pilot, "1")  # start the adventure
            await press(pilot, "1")  # §1 (cursed, no weapon) -> the shrine
            await press(pilot, "y")  # take the phoenix tears
            await press(pilot, "1")  # -> the storeroom
            await press(pilot, "3")  # over the limit: leave the lantern
            await press(pilot, "y")  # take the bread too
            await press(pilot, "3")  # over the limit again: leave the blanket
            assert app.session.paragraph == 3
            await press(pilot, "s")  # the full sheet...
            await press(pilot, "d")  # ... drop an item: the bread (the fifth held)
            await press(pilot, "5")
            seen["sheet_at_3"] = _sheet_text(app)
            await press(pilot, "1")  # -> the troll's bridge
            await press(pilot, "1")  # the paragraph read: "Fight"
            await press(pilot, "n", "n", "n", "n")  # no Luck on the four wounds
            await press(pilot, "enter")  # leave the fight screen: §5
            assert app.session.paragraph == 5
            seen["sheet_at_5"] = _sheet_text(app)
            await press(pilot, "1")  # -> the inn
            await press(pilot, "1")  # buy 2 Provisions
            await press(pilot, "6")  # leave the shop
            await press(pilot, "1")  # -> the pit
            await press(pilot, "1")  # bet on Garth
            await press(pilot, "3", "enter")  # 3 gold
            await press(pilot, "1")  # -> the gate
            await press(pilot, "1")  # the iron key: §9, victory
            await press(pilot, "enter")
            seen["ending"] = type(app.screen).__name__
            assert isinstance(app.screen, EndingScreen)
        seen["outcome"] = app.session.outcome
        seen["history"] = [entry.paragraph for entry in app.session.game.state.history]
        seen["decisions"] = list(app.session.game.decisions)

    asyncio.run(scenario())
    return seen


def test_changes_book_played_in_the_textual_player(snapshot):
    seen = _play("en")
    assert seen["outcome"] == "victory" and seen["history"] == list(range(1, 10))
    assert "SKILL -2 until a weapon" in seen["sheet_at_3"]
    assert "Bread" not in seen["sheet_at_3"] and "Phoenix Tears (when STAMINA" in seen["sheet_at_3"]
    assert "Penalties" not in seen["sheet_at_5"] and "Phoenix" not in seen["sheet_at_5"]
    assert {"action": "drop", "item": "Bread"} in seen["decisions"]
    assert seen == snapshot


def test_changes_book_in_french(snapshot):
    seen = _play("fr")
    assert seen["outcome"] == "victory"
    assert "Malus" in seen["sheet_at_3"] and "jusqu'à une arme" in seen["sheet_at_3"]
    assert seen == snapshot
