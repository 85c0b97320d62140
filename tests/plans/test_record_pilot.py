"""A game played in the Textual player (driven by a Pilot) recorded as a plan, then
replayed by ``dedale test`` to the same death."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.plans import read_plan
from dedale.plans.record import record_after_play
from dedale.plans.runner import run_plan
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen

SALT_ROAD = Path(__file__).resolve().parents[1] / "books_extra" / "plans"


def test_a_textual_game_recorded_replays_to_the_same_death(tmp_path, capsys):
    book = load_book(SALT_ROAD)
    app = DedaleApp(book, lambda b: Game.new(b, 3, hero=(9, 16, 8), name="Morwen"), lang="en")

    async def scenario():
        async with app.run_test(size=(100, 32)) as pilot:
            for key in ("1", "1", "2", "2"):  # new game, start, the beach, the rocks
                await pilot.press(key)
                await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, EndingScreen)

    asyncio.run(scenario())
    assert app.session.outcome == "death"
    path = tmp_path / "rocks.plan"
    record_after_play(str(path), app.session.game)
    assert "recorded as a plan" in capsys.readouterr().err
    text = path.read_text(encoding="utf-8")
    assert "hero: SKILL 9 STAMINA 16 LUCK 8\n" in text
    assert "at 1 / choose 3\nat 3 / choose 5\n" in text
    assert text.endswith("ending: death\n")
    result = run_plan(book, read_plan(path))
    assert result.findings == [] and result.outcome == "death"
