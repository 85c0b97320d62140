"""Pilot tests over the real interpreter: First Steps played from the title screen to a
victory and to a death, with a fixed seed and fixed stats, by keys only."""

from __future__ import annotations

import asyncio

from dedale import events as ev
from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.screens.fight import FightScreen
from dedale.player.screens.prompts import YesNoScreen
from dedale.player.screens.reading import ReadingScreen
from dedale.player.widgets.choices import ChoiceList


async def _play(app: DedaleApp, route: dict[int, int], yes: set[str]) -> tuple[list[int], str]:
    """Press keys until the ending screen: at each paragraph the choice leading to
    ``route[paragraph]``; yes/no questions answered y for the kinds in ``yes``."""
    seen: list[int] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")  # new game
        await pilot.pause()
        await pilot.press("enter", "1")  # default name, start the adventure
        await pilot.pause()
        for _ in range(60):
            screen, prompt = app.screen, app.session.prompt if app.session else None
            if isinstance(screen, EndingScreen):
                return seen, screen.outcome
            if isinstance(screen, YesNoScreen):
                await pilot.press("y" if prompt.kind in yes else "n")
            elif isinstance(screen, FightScreen) and screen.query_one(ChoiceList).display:
                await pilot.press("enter")  # leave the finished fight
            elif isinstance(screen, ReadingScreen) and isinstance(prompt, ev.ChoosePrompt):
                seen.append(app.session.paragraph)
                wanted = route[app.session.paragraph]
                shown = [o.target for o in prompt.options]
                await pilot.press(str(shown.index(wanted) + 1))
            elif isinstance(screen, ReadingScreen) and app.fight_waiting:
                await pilot.press("1")  # the paragraph is read first: "Fight"
            elif isinstance(screen, ReadingScreen) and app.session.finished:
                await pilot.press("enter")  # "The end"
            await pilot.pause()
    raise AssertionError(f"no ending reached; paragraphs: {seen}")


def _app(repo_root, tmp_path, hero: tuple[int, ...]) -> DedaleApp:
    from dedale.player.slots import SaveSlots

    book = load_book(repo_root / "books" / "first-steps")
    return DedaleApp(
        book,
        lambda b: Game.new(b, 1234, hero=hero, lang="en", free_stats=True),
        slots=SaveSlots(tmp_path, "first-steps"),
    )


def test_first_steps_to_victory(repo_root, tmp_path):
    app = _app(repo_root, tmp_path, hero=(12, 24, 12))
    route = {1: 2, 4: 9, 10: 12, 12: 15, 11: 9}
    seen, outcome = asyncio.run(_play(app, route, yes=set()))
    assert outcome == "victory"
    assert seen[0] == 1 and seen[-1] == 12
    stats = app.session.statistics
    assert stats.fights_won == 1 and stats.paragraphs_read >= 6 and stats.dice_rolled > 4
    assert (tmp_path / "first-steps" / "autosave.json").is_file()


def test_first_steps_to_death(repo_root, tmp_path):
    app = _app(repo_root, tmp_path, hero=(6, 12, 6))
    route = {1: 2, 4: 9, 11: 14}
    seen, outcome = asyncio.run(_play(app, route, yes={"escape"}))
    assert outcome == "death"
    assert seen[-1] == 11
    assert app.session.statistics.fights_won == 0
