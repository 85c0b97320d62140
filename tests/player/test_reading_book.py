"""The "reading" test book (issue 16) in the Textual player, by keys only: the forced jump
§2 -> §3 stacks both paragraphs on one page, each under its own number; the guard's
paragraph is read before the fight, which opens on "Combattre"; the choices of this French
book say "rendez-vous au N", never for the computed one."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.screens.fight import FightScreen
from dedale.player.screens.reading import ReadingScreen
from dedale.player.widgets.choices import ChoiceList
from textual.widgets import Markdown, Static

READING = Path(__file__).resolve().parents[1] / "books_extra" / "reading"
GUARD_FALLS = [1, 1, 6, 6]  # the guard's dice, then the hero's


def _app() -> DedaleApp:
    def new_game(book):
        game = Game.new(book, 1, hero=(10, 20, 9), name="Ariane")
        game.rng.force(GUARD_FALLS)
        return game

    return DedaleApp(load_book(READING), new_game)


def _labels(app: DedaleApp) -> list[str]:
    choices = app.screen.query_one("#choices", ChoiceList)
    return [str(choices.get_option_at_index(i).prompt) for i in range(choices.option_count)]


def _page(app: DedaleApp) -> list[str]:
    """The page from top to bottom: headings of stacked paragraphs and their text."""
    shown = []
    for widget in app.screen.query("#page > *"):
        if isinstance(widget, Markdown):
            shown.append(widget.source)
        elif isinstance(widget, Static) and widget.has_class("sub"):
            shown.append(str(widget.render()))
    return shown


async def _press(pilot, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await pilot.pause()


def test_the_reading_book_reads_like_a_book():
    app = _app()

    async def scenario():
        async with app.run_test(size=(120, 40)) as pilot:
            await _press(pilot, "1", "enter")  # new game, start the adventure
            assert _labels(app) == [
                "1. Grimper à la corde (rendez-vous au 2)",
                "2. Descendre l'escalier (rendez-vous au 4)",
            ]
            await _press(pilot, "1")  # the rope: §2, then §3 at once
            heading = str(app.screen.query_one("#heading", Static).render()).strip()
            assert heading == "§ 2"
            page = _page(app)
            assert page[0].startswith("La corde cède") and page[1] == "§ 3"
            assert page[2].startswith("Vous roulez sur un tas de paille")
            await _press(pilot, "1")  # look for the way out: §4 and its guard
            assert isinstance(app.screen, ReadingScreen) and app.fight_waiting
            assert _page(app)[0].startswith("Au pied des marches, un garde somnolent")
            assert _labels(app) == ["1. Combattre"]
            await _press(pilot, "e")  # no meal while the guard stands there
            assert [n.message for n in app._notifications] == ["Vous ne pouvez pas manger ici"]
            assert app.fight_waiting
            await _press(pilot, "1")  # fight
            assert isinstance(app.screen_stack[-2], FightScreen)  # the Luck question
            await _press(pilot, "n", "enter")  # no Luck; leave the won fight
            assert isinstance(app.screen, ReadingScreen) and app.session.paragraph == 5
            assert _labels(app) == [
                "1. Ajoutez vos pièces d'or à 3 et rendez-vous au paragraphe obtenu",
                "2. Remonter au seuil (rendez-vous au 1)",
            ]
            await _press(pilot, "1", "enter")  # 3 + 3 = 6: the roof; the end
            assert isinstance(app.screen, EndingScreen) and app.screen.outcome == "victory"

    asyncio.run(scenario())


def test_an_undo_while_the_fight_waits_forgets_that_fight():
    app = _app()
    app.playtest = True

    async def scenario():
        async with app.run_test(size=(120, 40)) as pilot:
            await _press(pilot, "1", "enter", "2")  # new game, start, down the stairs: §4
            assert app.fight_waiting and app.session.paragraph == 4
            await _press(pilot, "u")  # undo the choice: back to the threshold
            assert not app.fight_waiting
            assert app.session.paragraph == 1 and isinstance(app.screen, ReadingScreen)
            assert _labels(app)[1] == "2. Descendre l'escalier (rendez-vous au 4)"

    asyncio.run(scenario())
