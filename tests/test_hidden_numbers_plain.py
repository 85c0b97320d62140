"""The hidden-number test book (issue 13.1) played end to end by the plain player: a
prompt beside the paragraph's choices that may be skipped, a number belonging to another
puzzle refused, a wrong number that kills, a wrong number that costs STAMINA, at most three
wrong tries. Transcripts are snapshotted; the typed numbers replay exactly."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.game.saving import replay_save, to_save
from dedale.language import load_book
from dedale.plain.player import EXIT_DEATH, EXIT_VICTORY, PlainPlayer

HIDDEN = Path(__file__).resolve().parent / "books_extra" / "hidden"
HERO = (10, 20, 9)  # SKILL, STAMINA, LUCK


@pytest.fixture(scope="module")
def book():
    return load_book(HIDDEN)


def play(book, lines: str, lang: str = "en") -> tuple[int, str, Game]:
    game = Game.new(book, 1, hero=HERO, name="Ari", lang=lang, free_stats=True)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue(), game


def paragraphs(game: Game) -> list[int]:
    return [entry.paragraph for entry in game.state.history]


def test_the_bell_after_trying_the_dials_number(book, snapshot):
    # courtyard, the prompt, 56 (the dial's number: another puzzle) refused, the prompt
    # again, 40, down the stair
    code, text, game = play(book, "1\n1\n56\n1\n40\n1\n")
    assert code == EXIT_VICTORY
    assert paragraphs(game) == [1, 2, 40, 6]
    assert "56 is not the right number." in text
    assert "1. If you know where the bell sends you, turn to that number" in text
    assert text == snapshot


def test_the_dial_with_the_key_after_stepping_back(book, snapshot):
    # stable yard (the key), the front door, the dial, 0 (back to the choices), the dial, 56
    code, text, game = play(book, "2\n1\n1\n0\n1\n56\n1\n")
    assert code == EXIT_VICTORY
    assert paragraphs(game) == [1, 3, 4, 56, 6]
    assert text == snapshot


def test_a_wrong_number_at_the_dial_kills(book, snapshot):
    code, text, game = play(book, "2\n1\n1\n57\n")
    assert code == EXIT_DEATH
    assert paragraphs(game) == [1, 3, 4]
    assert text == snapshot


def test_the_dial_is_disabled_without_the_key(book):
    code, text, _ = play(book, "1\n2\n1\n")
    assert "(1. Set the dial to the number you have worked out -- unavailable: you need" in text


def test_the_letter_code_and_its_wrong_number(book, snapshot):
    # stable yard, front door, orchard: 12 is wrong (lose 2 STAMINA), the paragraph reads on
    code, text, game = play(book, "2\n1\n2\n12\n1\n1\n40\n1\n")
    assert code == EXIT_VICTORY
    assert paragraphs(game) == [1, 3, 4, 5, 2, 40, 6]
    assert "STAMINA: 20 -> 18" in text
    assert text == snapshot


def test_the_herb_behind_the_scarecrow(book):
    code, _, game = play(book, "2\n1\n2\n54\n1\n1\n40\n1\n")
    assert code == EXIT_VICTORY
    assert paragraphs(game) == [1, 3, 4, 5, 54, 2, 40, 6]


def test_three_wrong_numbers_close_the_prompt(book, snapshot):
    code, text, game = play(book, "1\n1\n11\n1\n12\n1\n13\n2\n")
    assert paragraphs(game)[:3] == [1, 2, 4]
    assert "(1. If you know where the bell sends you, turn to that number -- unavailable: " in text
    assert "you have already tried 3 wrong numbers here" in text
    assert text == snapshot


def test_in_french(book, snapshot):
    code, text, _ = play(book, "1\n1\n56\n1\n40\n1\n", lang="fr")
    assert code == EXIT_VICTORY
    assert "56 n'est pas le bon nombre." in text
    assert "(0 pour revenir aux choix)" in text
    assert text == snapshot


def test_the_typed_numbers_replay_exactly(book):
    _, _, game = play(book, "2\n1\n2\n12\n1\n1\n11\n1\n40\n")
    assert paragraphs(game) == [1, 3, 4, 5, 2, 40]
    assert 12 in game.decisions and 11 in game.decisions  # the typed numbers are decisions
    replayed = replay_save(book, to_save(game))
    assert replayed.difference is None
    assert (replayed.decisions, replayed.paragraph) == (len(game.decisions), 40)


FRENCH_BOOK = """---
titre: Le cadran
jeu-de-règles: df-classic
langue: fr
---
§ 1
Un coffre fermé par un cadran. Sur le couvercle : « ajoutez 12 à 18 ».
-> nombre secret (30) Si vous connaissez le nombre, rendez-vous à ce paragraphe
> mauvais nombre : perdez 2 ENDURANCE
-> 2 Laisser le coffre

§ 2
Vous rentrez chez vous.
> victoire

§ 30
> paragraphe secret
Le couvercle s'ouvre sur un trésor.
> victoire
"""


def test_a_book_written_with_french_keywords(tmp_path, snapshot):
    path = tmp_path / "cadran.dd"
    path.write_text(FRENCH_BOOK, "utf-8")
    code, text, game = play(load_book(path), "1\n7\n1\n30\n", lang="fr")
    assert code == EXIT_VICTORY
    assert paragraphs(game) == [1, 30]
    assert "7 n'est pas le bon nombre." in text and "ENDURANCE\u00a0: 20 -> 18" in text
    assert text == snapshot
