"""Every kind of prompt is asked with the right widget and answered with the right value;
the app survives resizing down to 80x24 and below."""

from __future__ import annotations

import asyncio

from dedale import events as ev
from dedale.player.app import DedaleApp
from dedale.player.screens.ending import EndingScreen
from fake_game import ScriptedGame, fake_book

SCRIPT = [
    ev.NamePrompt(default="Thésée"),
    ev.ParagraphEntered(number=7),
    ev.TextShown(text="Your pack is too heavy."),
    ev.DropItemPrompt(items=("Rope", "Lamp", "Shield"), limit=2),
    ev.YesNoPrompt(kind="escape"),
    ev.NumberPrompt(kind="hidden_number"),
    ev.FightStarted(
        enemies=(("Rat", (("STAMINA", 2),)), ("Bat", (("STAMINA", 3),))), mode="together"
    ),
    ev.TargetPrompt(enemies=("Rat", "Bat")),
    ev.FightEnded(outcome="won"),
    ev.ChoosePrompt(options=(ev.ChoiceOption(index=4, text="Onwards", target=8),)),
    ev.Victory(),
]


def test_each_prompt_gets_its_answer():
    game = ScriptedGame(SCRIPT)
    app = DedaleApp(fake_book(), lambda book: game, lang="fr")

    async def scenario():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("1")  # new game
            await pilot.pause()
            await pilot.press(*"Ariane", "enter")  # the name
            await pilot.pause()
            await pilot.press("1")  # start
            await pilot.pause()
            await pilot.press("2")  # drop the lamp
            await pilot.pause()
            await pilot.press("o")  # "oui": escape
            await pilot.pause()
            await pilot.press(*"42", "enter")
            await pilot.pause()
            await pilot.press("1")  # "Combattre", under the paragraph
            await pilot.pause()
            await pilot.resize_terminal(60, 20)
            await pilot.pause()
            await pilot.press("down", "enter")  # the bat
            await pilot.pause()
            await pilot.resize_terminal(120, 40)
            await pilot.press("enter")  # leave the fight
            await pilot.pause()
            await pilot.press("1")  # onwards
            await pilot.pause()
            await pilot.press("enter")  # the end
            await pilot.pause()
            assert isinstance(app.screen, EndingScreen)

    asyncio.run(scenario())
    assert game.answers == ["Ariane", "Lamp", True, 42, 1, 4]
