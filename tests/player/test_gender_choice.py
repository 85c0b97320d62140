"""The hero's gender chosen on the creation screen (issue 16.5): with the name, a French
player is offered "un homme / une femme" when neither the book nor ``--gender`` gives it
(Tab reaches it; Enter in the name box alone keeps the masculine; one Enter on a gender chooses
it and goes on with the name); the choice is kept in the game (saved) and the ending agrees
("Vous êtes morte"). Snapshots at 80x24 and 120x40."""

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
    await pilot.press("1")  # new game: the name box, the gender under it
    await pilot.pause()
    await pilot.press(*"Lise2")  # a digit in the name box is typed, not a choice
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
            for key in ("tab", "2", "1", "1"):  # a woman (and the name with it), start, cross
                await pilot.press(key)
                await pilot.pause()
            seen["gender"] = app.session.game.state.gender
            seen["creation"] = dict(app.session.game.creation)
            seen["end"] = _texts_of(app)
            seen["name"] = app.session.game.state.name

    asyncio.run(scenario())
    assert "Votre héros est-il un homme ou une femme" in str(seen["question"])
    assert seen["gender"] == "f" and seen["creation"]["gender"] == "f"
    assert seen["name"] == "Lise2"
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


def test_enter_alone_keeps_the_masculine():
    app = _app()
    seen: dict[str, object] = {}

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _to_gender(pilot)
            for key in ("enter", "1", "1"):  # the name, start, cross
                await pilot.press(key)
                await pilot.pause()
            seen["gender"] = app.session.game.state.gender
            seen["end"] = _texts_of(app)

    asyncio.run(scenario())
    assert seen["gender"] == "" and "morte" not in str(seen["end"])


def test_one_enter_on_the_gender_chooses_it_and_goes_on():
    """Tab to the gender, Down to "une femme", one Enter: the gender is kept and the name
    confirmed with it (the screen offers the start of the adventure at once)."""
    app = _app()
    seen: dict[str, object] = {}

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await _to_gender(pilot)
            for key in ("tab", "down", "enter"):
                await pilot.press(key)
                await pilot.pause()
            seen["gender"] = app.session.game.state.gender
            seen["name"] = app.session.game.state.name
            seen["name box shown"] = app.screen.query_one("#hero-name").display
            seen["question shown"] = app.screen.query_one("#gender-question").display
            await pilot.press("enter")  # the start of the adventure, then the cross
            await pilot.pause()
            await pilot.press("1")
            await pilot.pause()
            seen["end"] = _texts_of(app)

    asyncio.run(scenario())
    assert seen["gender"] == "f" and seen["name"] == "Lise2"
    assert seen["name box shown"] is False and seen["question shown"] is False
    assert "morte" in str(seen["end"]), seen["end"]


def test_the_default_name_goes_on_with_the_gender():
    """No name typed: one Enter on the gender keeps it and the default name."""
    app = _app()
    seen: dict[str, object] = {}

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("1")
            await pilot.pause()
            placeholder = app.screen.query_one("#hero-name").placeholder
            for key in ("tab", "enter"):
                await pilot.press(key)
                await pilot.pause()
            seen["default"] = placeholder
            seen["name"] = app.session.game.state.name
            seen["gender"] = app.session.game.state.gender

    asyncio.run(scenario())
    assert seen["default"] and seen["name"] == seen["default"]
    assert seen["gender"] == "m"
