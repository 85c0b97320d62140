"""The reliques fight turn (RULES.md, "Decisions added after the first audit") played from a
book's text (tests/books_extra/reliques-fight) by the plain player, with scripted dice, to
what the reader sees: a critical parry that strikes back, a defence that costs the hero his
last action, a fumbled initiative that leaves the ghoul one of its two actions.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.cli import main
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "reliques-fight"
HERO = (4, 3, 3, 4, 3, 3)  # FOR, AGL, PER, CON, ESP, CHA: health 20, two actions

# Turn 1: initiative hero 1+2 (margin 3), ghoul 3+3 (-1): the hero first. His attack 2+2
# (MR 3); the ghoul parries 1+1, a critical: it strikes back for 2 + 4 = 6; the hero dodges
# with his last action, 3+3, a plain success: the blow lands (20 -> 14). The ghoul's second
# action: 5+4, a miss; the hero has no action left to defend. Turn 2: hero 1+1 (first),
# ghoul 6+6 (a fumble: one of its two actions). The hero's 1+2 (MR 4) beats the ghoul's
# parry 5+5: 3 + 4 = 7; his second attack 2+3 (MR 2) beats its parry 6+4 with the one action
# left: 3 + 2 = 5, and the ghoul falls.
DICE = [1, 2, 3, 3, 2, 2, 1, 1, 3, 3, 5, 4, 1, 1, 6, 6, 1, 2, 5, 5, 2, 3, 6, 4]


@pytest.fixture(scope="module")
def book():
    return load_book(BOOK)


def play(book, lines: str, lang: str) -> tuple[int, str, Game]:
    game = Game.new(book, 1, hero=HERO, name="Ari", lang=lang, free_stats=True)
    game.rng.force(DICE)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue(), game


def test_a_critical_parry_strikes_back_and_the_fight_is_won(book, snapshot):
    code, text, game = play(book, "y\nn\n", "en")  # dodge the strike back; keep Courage
    assert code == EXIT_VICTORY
    assert "(parried)" in text and "it wounds you. (riposte)" in text
    assert text.count("Dodge this attack?") == 1  # no action left for the ghoul's attack
    assert game.state.hero.stats["HEALTH"] == 14
    assert text == snapshot


def test_the_same_fight_in_french(book, snapshot):
    code, text, _ = play(book, "o\nn\n", "fr")
    assert code == EXIT_VICTORY
    assert "(paré)" in text and "(riposte)" in text
    assert text == snapshot


def test_the_book_validates_strict_without_findings():
    assert main(["validate", "--strict", "--runs", "200", str(BOOK)]) == 0
