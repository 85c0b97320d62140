"""Stats the reader gave (``--hero``) are shown as values on the creation screen, not as
dice rolls (« HABILETÉ : 1d6+6 = 9 » claimed a roll that never happened)."""

from __future__ import annotations

import asyncio

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from textual.widgets import Static

BOOK = "---\ntitre: T\nlangue: fr\njeu-de-règles: df-classic\n---\n§ 1\nLa porte.\n> victoire\n"


def _rolls(tmp_path, hero) -> str:
    path = tmp_path / "livre.dd"
    path.write_text(BOOK, encoding="utf-8")
    book = load_book(path)
    app = DedaleApp(book, lambda b: Game.new(b, 3, hero=hero, name="Ari", lang="fr"), lang="fr")
    seen: list[str] = []

    async def scenario() -> None:
        async with app.run_test(size=(110, 36)) as pilot:
            await pilot.press("1")  # new game
            await pilot.pause()
            seen.extend(str(s.render()) for s in app.screen.query(".roll").results(Static))

    asyncio.run(scenario())
    return "\n".join(seen).replace("\u00a0", " ")


def test_given_stats_are_values(tmp_path):
    rolls = _rolls(tmp_path, (9, 18, 9))
    assert "HABILETÉ : 9" in rolls and "ENDURANCE : 18" in rolls
    assert "1d6" not in rolls and "2d6" not in rolls


def test_rolled_stats_show_their_dice(tmp_path):
    rolls = _rolls(tmp_path, None)
    assert "1d6+6" in rolls and "2d6+12" in rolls
