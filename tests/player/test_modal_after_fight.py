"""A question asked as a modal right after a fight (an optional pick-up on the next
paragraph) is answered: the modal is asked from the reading screen, not from the closed
fight screen, whose handler would have been told the answer (found by an outsider's book)."""

from __future__ import annotations

import asyncio

from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp

BOOK = (
    "§ 1\nA rat leaps at you.\n> fight RAT SKILL 1 STAMINA 2\n> win -> 2\n"
    "§ 2\nA rope lies by the wall.\n> you may take Rope\n-> 3 Go on\n"
    "§ 3\n> victory\n"
)


def test_a_pick_up_asked_right_after_a_fight_is_answered(tmp_path):
    (tmp_path / "book.dd").write_text(
        "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n" + BOOK, "utf-8"
    )
    book = load_book(tmp_path / "book.dd")

    def new_game(b):
        game = Game.new(b, 1, hero=(12, 20, 9), name="Ari", lang="en")
        game.rng.force([6, 6, 1, 1])  # 24 against 3: the rat falls at the first wound
        return game

    app = DedaleApp(book, new_game, lang="en")
    seen: dict[str, object] = {}

    async def scenario():
        async with app.run_test(size=(100, 32)) as pilot:
            for key in ("1", "1", "1", "n", "enter"):  # new game, start, Fight, no Luck, leave
                await pilot.press(key)
                await pilot.pause()
            seen["asked"] = type(app.session.prompt).__name__
            await pilot.press("n")  # leave the rope
            await pilot.pause()
            seen["then"] = type(app.session.prompt).__name__
            seen["items"] = dict(app.session.game.state.hero.items)

    asyncio.run(scenario())
    assert seen == {"asked": "YesNoPrompt", "then": "ChoosePrompt", "items": {}}
