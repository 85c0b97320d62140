"""The hero's gender chosen on the creation screen (issue 16.5): after the name, a French
player is asked "un homme / une femme" when neither the book nor ``--gender`` gives it; the
choice is kept in the game (saved) and the ending agrees ("Vous êtes morte"). Snapshots of
the question at 80x24 and 120x40."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp
from textual.widgets import Static

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "gender"


def _app(lang: str = "fr", flag: str | None = None) -> DedaleApp:
    def new_game(book):
        return Game.new(book, 1, hero=(10, 20, 9), lang=lang)

    app = DedaleApp(load_book(BOOK), new_game, lang=lang)
    app.gender_flag = flag
    return app


async def _to_gender(pilot) -> None:
    await pilot.pause()
    await pilot.press("1")  # new game
    await pilot.pause()
    await pilot.press(*"Lise", "enter")
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_gender_question_on_the_creation_screen(snap_compare, size):
    assert snap_compare(_app(), run_before=_to_gender, terminal_size=size)


def _texts_of(app: DedaleApp) -> str:
    return "\n".join(str(w.render()) for w in app.screen.query(Static))


def test_a_woman_is_kept_and_the_ending_agrees():
    app = _app()
    seen: dict[str, object] = {}

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _to_gender(pilot)
            seen["question"] = _texts_of(app)
            for key in ("2", "1", "1"):  # a woman, start, cross anyway
                await pilot.press(key)
                await pilot.pause()
            seen["gender"] = app.session.game.state.gender
            seen["creation"] = dict(app.session.game.creation)
            seen["end"] = _texts_of(app)

    asyncio.run(scenario())
    assert "Votre héros est-il un homme ou une femme" in str(seen["question"])
    assert seen["gender"] == "f" and seen["creation"]["gender"] == "f"
    assert "morte" in str(seen["end"]), seen["end"]


@pytest.mark.parametrize(("lang", "flag"), [("fr", "m"), ("en", None)])
def test_not_asked_when_given_or_in_english(lang, flag):
    app = _app(lang, flag)
    seen: list[str] = []

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _to_gender(pilot)
            seen.append(_texts_of(app))

    asyncio.run(scenario())
    assert "femme" not in seen[0] and "woman" not in seen[0]
