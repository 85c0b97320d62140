"""Pilot tests: play the scripted book from the title screen to a victory and to a death."""

from __future__ import annotations

import asyncio

from dedale.player.screens.ending import EndingScreen
from dedale.player.screens.fight import FightScreen
from dedale.player.screens.reading import ReadingScreen
from fake_game import fake_app


def _page_text(screen) -> str:
    """The text of every paragraph on the reading screen's page."""
    from textual.widgets import Markdown

    return " ".join(m.source for m in screen.query("#page Markdown").results(Markdown))


def test_title_to_victory():
    asyncio.run(_victory())


async def _victory():
    app = fake_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")  # new game
        await pilot.pause()
        await pilot.press("enter")  # keep the default name
        await pilot.pause()
        await pilot.press("1")  # start the adventure
        await pilot.pause()
        assert isinstance(app.screen, ReadingScreen)
        await pilot.press("1")  # open the door
        await pilot.pause()
        assert isinstance(app.screen, ReadingScreen)  # the guard's paragraph is read first
        assert "goblin guard" in _page_text(app.screen)
        await pilot.press("1")  # Fight
        await pilot.pause()
        assert isinstance(app.screen_stack[-2], FightScreen)  # the Luck question is a modal
        await pilot.press("y")  # test Luck after the wound
        await pilot.pause()
        assert isinstance(app.screen, FightScreen)
        await pilot.press("enter")  # leave the fight
        await pilot.pause()
        assert app.session.sheet.codewords == {"Brave"}
        await pilot.press("1")  # climb the stairs
        await pilot.pause()
        await pilot.press("enter")  # the end
        await pilot.pause()
        assert isinstance(app.screen, EndingScreen)
        assert app.screen.outcome == "victory"
        stats = app.session.statistics
        assert (stats.paragraphs_read, stats.fights_won, stats.choices_made) == (3, 1, 2)
        assert stats.dice_rolled == 4 + 2 + 2


def test_title_to_death():
    asyncio.run(_death())


async def _death():
    app = fake_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        await pilot.press("3")  # disabled choice: nothing happens
        await pilot.pause()
        assert app.session.paragraph == 1
        await pilot.press("2")  # climb the wall
        await pilot.pause()
        assert app.session.outcome == "death"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EndingScreen)
        assert app.screen.outcome == "death"


def test_eat_a_meal_then_choose():
    asyncio.run(_eat())


async def _eat():
    app = fake_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        await pilot.press("e")
        await pilot.pause()
        assert app.session.sheet.counters["meals"] == 2  # at full STAMINA: asked first
        await pilot.press("y")
        await pilot.pause()
        assert app.session.sheet.counters["meals"] == 1
        await pilot.press("2")  # the choice is asked again and still answers
        await pilot.pause()
        assert app.session.outcome == "death"


def test_back_to_title_from_creation_then_a_new_game():
    asyncio.run(_restart())


async def _restart():
    app = fake_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1", "enter")  # new game, default name: "Start" is offered
        await pilot.pause()
        await pilot.press("escape")  # back to the title
        await pilot.pause()
        await pilot.press("1", "enter")
        await pilot.pause()
        await pilot.press("1")
        await pilot.pause()
        assert isinstance(app.screen, ReadingScreen)
        assert app.session.paragraph == 1 and app.session.statistics.paragraphs_read == 1
