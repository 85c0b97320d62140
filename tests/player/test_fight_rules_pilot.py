"""The Textual player over the fight-rules test book (issue 13.2), driven by a Pilot: the
per-enemy rules show on the fight screen (the constrictor's hold as a counter on the sheet,
the captain's SKILL falling on the enemy's side), "survive 3 assaults" and "first assault
won" lead on, and where exits change the odds the fight hint is the chance to leave the fight
alive (player/odds_special.py)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.screens.fight import FightScreen
from dedale.player.screens.prompts import YesNoScreen
from textual.widgets import Static

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_fight_rules_plain import FIGHTS, HERO, MACE  # noqa: E402


def _fight_screen(app: DedaleApp) -> FightScreen | None:
    return next((s for s in app.screen_stack if isinstance(s, FightScreen)), None)


def _panel(screen: FightScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


def _play(lang: str) -> dict[str, object]:
    book = load_book(FIGHTS)

    def new_game(b):
        game = Game.new(b, 1, hero=HERO, name="Ari", lang=lang)
        game.rng.force(MACE)
        return game

    app = DedaleApp(book, new_game, lang=lang)
    seen: dict[str, object] = {}

    async def press(pilot, *keys: str) -> None:
        await pilot.press(*keys)
        await pilot.pause()

    async def scenario():
        async with app.run_test(size=(110, 36)) as pilot:
            await press(pilot, "1")  # new game
            await press(pilot, "1")  # start the adventure
            await press(pilot, "1")  # the mace
            await press(pilot, "1")  # down the stair: the skeleton
            for _ in range(120):  # no Luck, leave each fight screen, the only way on
                screen = app.screen
                if isinstance(screen, EndingScreen):
                    break
                fight = _fight_screen(app)
                if fight is not None and "ORC CAPTAIN" in _panel(fight, "#enemy-side"):
                    seen.setdefault("captain", []).append(_panel(fight, "#enemy-side"))
                    if "odds" not in seen:
                        await app.workers.wait_for_complete()  # the hint's thread worker
                        await pilot.pause()
                        seen["odds"] = _panel(fight, "#odds")
                if isinstance(screen, YesNoScreen):
                    await press(pilot, "n")
                elif isinstance(screen, FightScreen):
                    await press(pilot, "enter")
                else:
                    await press(pilot, "1")
            seen["ending"] = type(app.screen).__name__
        seen["outcome"] = app.session.outcome
        seen["history"] = [entry.paragraph for entry in app.session.game.state.history]

    asyncio.run(scenario())
    return seen


def test_fight_rules_in_the_textual_player():
    seen = _play("en")
    assert seen["ending"] == "EndingScreen" and seen["outcome"] == "victory"
    assert seen["history"] == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]
    captain = seen["captain"]
    assert any("SKILL" in panel and "5" in panel for panel in captain), captain
    # § 8 has rules under its enemy: the hint is the exit odds' chance to leave it alive (the
    # plain hint would ignore them; tests/player/test_special_hint_pilot.py checks the figure)
    # (computed in a thread: once an assault was fought, the label says "at its start")
    assert seen["odds"].startswith(
        (
            "Chance of leaving the fight alive: ",
            "Chance of leaving the fight alive (at its start): ",
        )
    ), seen["odds"]
