"""The Textual player over the flow test book (issue 13.3, 13.5), driven by a Pilot: the
choices written before a fight and before a Luck test are shown there, each with its
"go on" option (Fight TROLL / Combattre TROLL, Test your Luck / Tentez votre Chance), and
a choice's effects (the stew) change the Adventure Sheet."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from dedale.player.widgets.choices import ChoiceList

FLOW = Path(__file__).resolve().parents[1] / "books_extra" / "flow"
# the troll rolls first each assault: 1+1 against the hero's 6+6, twice; then Luck: 1+1
VICTORY_DICE = [1, 1, 6, 6, 1, 1, 6, 6, 1, 1]


def _new_game(book, lang: str) -> Game:
    game = Game.new(book, 1, hero=(10, 16, 9), name="Ari", lang=lang)
    game.rng.force(VICTORY_DICE)
    return game


def _choices(app: DedaleApp) -> list[str]:
    shown = app.screen.query_one(ChoiceList)
    return [str(shown.get_option_at_index(i).prompt) for i in range(shown.option_count)]


def _play(lang: str) -> dict[str, object]:
    book = load_book(FLOW)
    app = DedaleApp(book, lambda b: _new_game(b, lang), lang=lang)
    seen: dict[str, object] = {}

    async def press(pilot, *keys: str) -> None:
        await pilot.press(*keys)
        await pilot.pause()

    async def scenario():
        async with app.run_test(size=(100, 32)) as pilot:
            await press(pilot, "1")  # new game
            await press(pilot, "1")  # start the adventure
            await press(pilot, "1")  # §1: the stew
            assert app.session.paragraph == 2
            seen["gold"] = app.session.game.state.hero.counters["gold"]
            seen["bridge"] = _choices(app)
            await press(pilot, "2")  # fight the troll
            await press(pilot, "n")  # no Luck on the first wound dealt
            await press(pilot, "n")  # nor on the second: the troll falls
            await press(pilot, "enter")  # leave the fight screen: §3
            assert app.session.paragraph == 3
            seen["cliff"] = _choices(app)
            await press(pilot, "2")  # test your Luck: lucky, §5
            await press(pilot, "enter")
            seen["ending"] = type(app.screen).__name__
            assert isinstance(app.screen, EndingScreen)
        seen["outcome"] = app.session.outcome
        seen["history"] = [entry.paragraph for entry in app.session.game.state.history]

    asyncio.run(scenario())
    return seen


def test_choices_before_the_rules_in_the_textual_player():
    seen = _play("en")
    assert seen["gold"] == 3  # the stew's price
    assert seen["bridge"] == ["1. Wade across the ford", "2. Fight TROLL"]
    assert seen["cliff"] == ["1. Go down to the ford", "2. Test your Luck"]
    assert seen["outcome"] == "victory" and seen["history"] == [1, 2, 3, 5]


def test_choices_before_the_rules_in_french():
    seen = _play("fr")
    assert seen["bridge"] == ["1. Wade across the ford", "2. Combattre TROLL"]
    assert seen["cliff"] == ["1. Go down to the ford", "2. Tentez votre Chance"]
    assert seen["outcome"] == "victory"
