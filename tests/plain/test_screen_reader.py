"""The plain player's screen-reader mode (issue 16.11): dice, stat changes and the chance
of winning said as sentences, every question ending with the answers it accepts, no box
drawing. Played end to end on tests/books_extra/articles; transcripts are snapshotted."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer
from dedale.plain.screen_reader import speakable, wanted

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "articles"
LOST, WON = (6, 6, 1, 1), (1, 1, 6, 6)  # the enemy's two dice, then the hero's
DICE = [*LOST, *WON, *WON, *WON, *WON]


def play(lang: str) -> tuple[int, str]:
    game = Game.new(load_book(BOOKS / lang), 1, hero=(10, 20, 9), name="Ari", lang=lang)
    game.rng.force(DICE)
    out = io.StringIO()
    script = "sheet\n1\n" + "n\n" * 5
    code = PlainPlayer(game, io.StringIO(script), out, echo=True, screen_reader=True).play()
    return code, out.getvalue()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_game_read_aloud(lang, snapshot):
    code, text = play(lang)
    assert code == EXIT_VICTORY
    assert not re.search(r"[\u2500-\u259f]|->|§|\*\*\*|\[\d\]", text)
    lines = text.splitlines()
    asked = [
        line for line, after in zip(lines[:-1], lines[1:], strict=True) if after.startswith("> ")
    ]
    assert len(asked) >= 7
    assert all(line.endswith(".") for line in asked), asked  # "... Answer 1." after each
    assert text == snapshot


def test_the_french_sentences():
    _, text = play("fr")
    assert "Paragraphe 5." in text
    assert "Vous lancez 2 dés\u00a0: 6 et 6, total 12." in text
    assert "ENDURANCE passe de 20 à 18 (total de départ 20)." in text
    assert "Vos chances de remporter ce combat\u00a0: " in text
    assert "Votre choix\u202f? Répondez 1." in text
    assert "pour frapper plus fort\u202f? Répondez o pour oui ou n pour non." in text


def test_the_english_sentences():
    _, text = play("en")
    assert "You roll 2 dice: 6 and 6, total 12." in text
    assert "STAMINA goes from 20 to 18 (initial 20)." in text
    assert "Your chance of winning this fight: " in text
    assert "Test your Luck to strike harder? Answer y for yes or n for no." in text


def test_the_environment_asks_for_it():
    assert wanted(True, {})
    assert wanted(False, {"DEDALE_SCREEN_READER": "1"})
    assert not wanted(False, {})
    assert not wanted(False, {"DEDALE_SCREEN_READER": "0"})
    assert not wanted(False, {"DEDALE_SCREEN_READER": "off"})


def test_no_drawing_is_spoken():
    assert speakable("*** Victory! ***") == "Victory!"
    assert speakable("STAMINA ████░░ 4/6") == "STAMINA 4/6"
    assert speakable("plain words") == "plain words"


def test_the_command_line_flag_and_variable(tmp_path):
    book = str(BOOKS / "en")
    args = [sys.executable, "-m", "dedale", "play", book, "--seed", "1", "--hero", "10", "20", "9"]
    by_flag = subprocess.run(
        [*args, "--screen-reader"], input="\n", capture_output=True, text=True, timeout=60
    )
    assert "Paragraph 1." in by_flag.stdout
    assert "Answer 1." in by_flag.stdout
    by_env = subprocess.run(
        args, input="\n", capture_output=True, text=True, timeout=60,
        env={"DEDALE_SCREEN_READER": "1", "PATH": "", "HOME": str(tmp_path)},
    )  # fmt: skip
    assert "Paragraph 1." in by_env.stdout
