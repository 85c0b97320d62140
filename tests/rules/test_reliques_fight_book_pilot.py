"""The reliques fight test book (tests/books_extra/reliques-fight) in the Textual player,
driven by a Pilot with the plain test's scripted dice: the fight screen's log shows the
ghoul's critical parry, its strike back and the hero's wound, and the fight is won."""

from __future__ import annotations

import asyncio

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.screens.fight import FightScreen
from dedale.player.screens.prompts import YesNoScreen
from test_reliques_fight_book_plain import BOOK, DICE, HERO
from textual.widgets import RichLog


def _play(lang: str, answers: list[str]) -> dict[str, object]:
    book = load_book(BOOK)

    def new_game(b):
        game = Game.new(b, 1, hero=HERO, name="Ari", lang=lang, free_stats=True)
        game.rng.force(DICE)
        return game

    app = DedaleApp(book, new_game, lang=lang)
    seen: dict[str, object] = {"log": []}
    answers = list(answers)

    async def press(pilot, *keys: str) -> None:
        await pilot.press(*keys)
        await pilot.pause()

    async def scenario():
        async with app.run_test(size=(110, 36)) as pilot:
            await press(pilot, "1")  # new game
            await press(pilot, "1")  # start the adventure
            for _ in range(60):
                screen = app.screen
                if isinstance(screen, EndingScreen):
                    break
                fight = next((s for s in app.screen_stack if isinstance(s, FightScreen)), None)
                if fight is not None:
                    lines = fight.query_one("#assaults", RichLog).lines
                    seen["log"] = [line.text for line in lines]
                if isinstance(screen, YesNoScreen):
                    await press(pilot, answers.pop(0) if answers else "n")
                elif isinstance(screen, FightScreen):
                    await press(pilot, "enter")
                else:
                    await press(pilot, "1")
            seen["ending"] = type(app.screen).__name__
        seen["outcome"] = app.session.outcome
        seen["health"] = app.session.game.state.hero.stats["HEALTH"]

    asyncio.run(scenario())
    return seen


def test_the_strike_back_shows_on_the_fight_screen():
    seen = _play("en", ["y", "n"])  # dodge the strike back (it still lands); keep Courage
    assert seen["ending"] == "EndingScreen" and seen["outcome"] == "victory"
    log = "\n".join(seen["log"])
    assert "(parried)" in log and "(riposte)" in log, log
    assert seen["health"] == 14


def test_the_fight_log_names_the_rolls_turns_and_initiative_in_french():
    seen = _play("fr", ["o", "n"])
    log = "\n".join(seen["log"]).replace("\u00a0", " ").replace("\u202f", " ")
    assert "Votre initiative : [1] [2] = 3 (au plus 6 : marge +3)" in log, log
    assert "Initiative de GHOUL : [3] [3] = 6 (au plus 5 : marge -1)" in log, log
    assert "Vous agissez en premier." in log and "initiative (first" not in log, log
    assert "Tour 1 : " in log and "vous 0" not in log and "Assaut" not in log, log
    assert "d'hero" not in log, log
