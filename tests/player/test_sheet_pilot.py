"""The Adventure Sheet of the Textual player over the sheet test book (issue 16.7-8): a
weapon's bonus shown with its cause, initial values, tagged items in their own boxes, long
names wrapped; a payment narrated on the page of the paragraph it leads to; a meal at full
STAMINA asked first."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.widgets.adventure_sheet import render_sheet
from rich.console import Console
from textual.widgets import Static

SHEET_BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "sheet"


def _app() -> DedaleApp:
    book = load_book(SHEET_BOOK)
    return DedaleApp(book, lambda b: Game.new(b, 1, hero=(9, 20, 9), name="Ari", lang="fr"))


def _sheet_text(app: DedaleApp, width: int = 36) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(render_sheet(app.session.sheet, app.texts, app.stat_name))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def _page_text(app: DedaleApp) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query("#page Static"))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_sheet_with_a_weapon_bonus(snap_compare, size):
    async def play(pilot):
        await pilot.pause()
        for key in ("1", "1", "1", "s"):  # new game, start, buy the lantern, the sheet
            await pilot.press(key)
            await pilot.pause()

    assert snap_compare(_app(), run_before=play, terminal_size=size)


def test_the_sheet_shows_causes_boxes_and_the_payment():
    app = _app()
    seen: dict[str, str] = {}

    async def scenario():
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("1")
            await pilot.pause()
            await pilot.press("1")
            await pilot.pause()
            seen["before"] = _sheet_text(app)
            await pilot.press("1")  # pay 3 gold for the lantern
            await pilot.pause()
            seen["after"] = _sheet_text(app)
            seen["page"] = _page_text(app)
            await pilot.press("e")  # a meal at full STAMINA: the player asks first
            await pilot.pause()
            seen["question"] = str(app.screen.query_one(".question", Static).render())
            await pilot.press("n")
            await pilot.pause()
            seen["refused"] = str(app.session.game.state.hero.counters["meals"])
            await pilot.press("e")
            await pilot.pause()
            await pilot.press("o")  # oui
            await pilot.pause()
            seen["eaten"] = str(app.session.game.state.hero.counters["meals"])

    asyncio.run(scenario())
    before, after = seen["before"], seen["after"]
    assert "HABILETÉ    9 (+1 Épée d'argent) =\n            10 (au départ 9)" in before
    assert "ENDURANCE   20 (au départ 20)" in before
    assert "Potion      Potion d'Adresse" in before
    assert "Bijou       Bague de jade" in before
    assert "Pièces d'or 10" in before and "Pièces d'or 7" in after
    # the lantern's long name wraps between words, never cut inside one
    assert (
        "Lanterne à double mèche\n            et verre fumé des mines\n            de l'Est"
        in after
    )
    # the payment is narrated on the page of the paragraph it leads to, above its text
    assert seen["question"].startswith("Votre ENDURANCE est déjà à son total de départ (20)")
    assert (seen["refused"], seen["eaten"]) == ("10", "9")
    page = seen["page"].splitlines()
    assert page[0] == "Pièces d'or 10 → 7"
    assert page[1].startswith("Le passeur décroche la lanterne")
