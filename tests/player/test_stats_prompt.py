"""book.yaml ``creation: fixed_stats: true``: the creation screen asks each stat in a typed
box checked against its range, or rolls the dice when every box is left empty (issue 12.2)."""

from __future__ import annotations

import asyncio

import pytest
from dedale import events as ev
from dedale.player.app import DedaleApp
from fake_game import ScriptedGame, fake_book
from textual.widgets import Input, Static

PROMPT = ev.StatsPrompt(
    stats=(
        ev.StatEntry(stat="SKILL", low=7, high=12),
        ev.StatEntry(stat="STAMINA", low=14, high=24),
        ev.StatEntry(stat="LUCK", low=7, high=12),
    )
)


def _game() -> ScriptedGame:
    return ScriptedGame([PROMPT, ev.NamePrompt(default="Ari"), ev.ParagraphEntered(number=1)])


def test_typed_stats_are_checked_against_their_ranges():
    game = _game()
    app = DedaleApp(fake_book(), lambda book: game, lang="fr")

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("1")  # new game
            await pilot.pause()
            labels = [str(s.render()) for s in app.screen.query(".stat-label").results(Static)]
            assert labels == ["HABILETÉ (7 à 12)", "ENDURANCE (14 à 24)", "CHANCE (7 à 12)"]
            await pilot.press(*"13", "enter", *"20", "enter", "²", "enter")
            await pilot.pause()
            problem = str(app.screen.query_one("#stats-problem", Static).render())
            assert problem.startswith("HABILETÉ")
            assert game.answers == []  # nothing sent while a box is wrong
            app.screen.query_one("#stat-0", Input).value = "11"
            app.screen.query_one("#stat-2", Input).value = "9"
            app.screen.query_one("#stat-0", Input).focus()
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert game.answers == [(11, 20, 9)]
            assert not app.screen.query_one("#stats-form").display
            await pilot.press("enter")  # the default name
            await pilot.pause()
            assert game.answers == [(11, 20, 9), "Ari"]

    asyncio.run(scenario())


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_box_empty_rolls_the_dice(lang):
    game = _game()
    app = DedaleApp(fake_book(), lambda book: game, lang=lang)

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("1")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert game.answers == [None]

    asyncio.run(scenario())


def test_some_boxes_empty_asks_for_the_rest():
    game = _game()
    app = DedaleApp(fake_book(), lambda book: game, lang="en")

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("1")
            await pilot.pause()
            app.screen.query_one("#stat-2", Input).value = "9"
            app.screen.query_one("#stat-2", Input).focus()
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            problem = str(app.screen.query_one("#stats-problem", Static).render())
            assert "type every stat" in problem
            assert game.answers == []

    asyncio.run(scenario())
