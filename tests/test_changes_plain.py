"""The state-changes test book (issue 13 §7) played end to end by the plain player: a
lowered initial value, a penalty until a weapon is found, a potion acting at 0 STAMINA in
a fight, an inventory limit with exemptions, optional pick-ups, an item dropped at will, a
shop selling Provisions, a wager on a watched fight. Transcripts are snapshotted."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer
from dedale.validator import validate_path

CHANGES = Path(__file__).resolve().parent / "books_extra" / "changes"
# the troll wins two assaults (it 12+6+6, you 8+1+1), the tears act, you win two (it
# 12+1+1, you 10+6+6); then Garth beats the brute (faces as the quiet rules core draws them)
DICE = [*(6, 6, 1, 1) * 2, *(1, 1, 6, 6) * 2, *(1, 1, 6, 6) * 2]
ENGLISH = (
    "1\ny\n1\nLantern\ny\nBlanket\ndrop Bread\nsheet\n1\nn\nn\nn\nn\nsheet\n1\n"
    "1\n6\n1\n1\n3\n1\n1\n"
)
FRENCH = (
    "1\no\n1\nLantern\no\nBlanket\njeter Bread\nfeuille\n1\nn\nn\nn\nn\nfeuille\n1\n"
    "1\n6\n1\n1\n3\n1\n1\n"
)


@pytest.fixture(scope="module")
def book():
    return load_book(CHANGES)


def play(book, lines: str, lang: str) -> tuple[int, str, Game]:
    game = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang=lang, free_stats=True)
    game.rng.force(DICE)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue(), game


def test_every_state_change_in_english(book, snapshot):
    code, text, game = play(book, ENGLISH, "en")
    assert code == EXIT_VICTORY
    assert [entry.paragraph for entry in game.state.history] == list(range(1, 10))
    hero = game.state.hero
    assert (hero.initial["LUCK"], hero.stats["SKILL"]) == (8, 10)  # cursed; penalty lifted
    assert "Penalties: SKILL -2 until a weapon" in text
    assert "Phoenix Tears takes effect and is used up." in text
    assert "Items:\n    Phoenix Tears (when STAMINA falls to 0)\n" in text
    assert "  Ring:\n    Copper Ring" in text  # its (ring) tag gives it a box (16.8)
    assert (hero.counters["meals"], hero.counters["gold"]) == (12, 6)
    assert set(hero.items) == {"Copper Ring", "Iron Key", "Rope", "Pick Axe"}
    assert {"action": "drop", "item": "Bread"} in game.decisions
    again = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang="en", free_stats=True)
    again.rng.force(DICE)
    again.replay(game.decisions)  # the drop and the pick-ups are decisions: the same game
    assert again.snapshot() == game.snapshot()
    assert text == snapshot


def test_every_state_change_in_french(book, snapshot):
    code, text, game = play(book, FRENCH, "fr")
    assert code == EXIT_VICTORY
    assert "Malus\u00a0: HABILETÉ -2 jusqu'à une arme" in text
    assert text == snapshot


def test_the_book_validates_clean():
    report = validate_path(CHANGES, runs=200, seed=0)
    assert [(f.code, f.message) for f in report.findings] == []
