"""The fight screen of a group written once (issue 16.5) and its enemy panel (16.2): each
enemy of ``> ennemis les trois RATS … chacun`` by its place ("Premier RAT"), a group
fighting as one named as a real list ("Le Rat gris et le Rat borgne", never "&"), at 80x24
and 120x40, in French and English."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.player.app import DedaleApp

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "groups"
LOST, WON = (6, 6, 1, 1), (1, 1, 6, 6)  # the enemy's two dice, then the hero's
DICE = [LOST, *[WON] * 5]


def _app(lang: str) -> DedaleApp:
    def new_game(book):
        game = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang=lang)
        game.rng.force([face for roll in DICE for face in roll])
        return game

    return DedaleApp(load_book(BOOKS / lang), new_game, lang=lang)


async def _first_rat_down(pilot) -> None:
    await pilot.pause()
    # new game, start, fight (the paragraph read first), no Luck on the first two assaults
    for key in ("1", "1", "1", "n", "n"):
        await pilot.press(key)
        await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_rats_one_after_another_in_french(snap_compare, size):
    assert snap_compare(_app("fr"), run_before=_first_rat_down, terminal_size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_rats_one_after_another_in_english(snap_compare, size):
    assert snap_compare(_app("en"), run_before=_first_rat_down, terminal_size=size)


def test_the_owls_as_one_in_french(snap_compare):
    async def play(pilot):
        await _first_rat_down(pilot)
        for key in ("n", "n", "enter", "1", "n"):  # the last two rats, Continue, fight
            await pilot.press(key)
            await pilot.pause()

    assert snap_compare(_app("fr"), run_before=play, terminal_size=(120, 40))
