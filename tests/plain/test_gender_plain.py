"""The hero's gender asked at creation by the plain player (issue 16.5): right after the
name, when the player speaks French and neither the book (``creation: gender:``) nor
``--gender`` gives it; saved with the game; the sentences about the hero agree with it
("Vous êtes morte"). Played end to end on tests/books_extra/gender."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.game.saving import load_game, save_game
from dedale.language import load_book
from dedale.plain.player import EXIT_DEATH, PlainPlayer

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "gender"
QUESTION = "Votre héros est-il un homme ou une femme\u202f?"


def play(answers: str, gender: str | None = None, game: Game | None = None):
    game = game or Game.new(load_book(BOOK), 1, hero=(10, 20, 9), lang="fr")
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(answers), out, echo=True, gender=gender).play()
    return game, code, out.getvalue()


def test_the_gender_is_asked_after_the_name_and_agrees(snapshot):
    game, code, text = play("Lise\n2\n1\n")
    assert code == EXIT_DEATH
    assert "> Lise\n  1. un homme\n  2. une femme\n" + QUESTION + "\n> 2\n" in text
    assert "Vous êtes morte" in text
    assert game.state.gender == "f"
    assert text == snapshot


@pytest.mark.parametrize(("answer", "ending"), [("", "Vous êtes mort."), ("homme", "mort.")])
def test_enter_keeps_the_masculine_and_words_are_understood(answer, ending):
    game, _code, text = play(f"Léo\n{answer}\n1\n")
    assert ending in text and "morte" not in text
    assert game.state.gender == ("m" if answer else "")


def test_a_wrong_answer_asks_again():
    _game, _code, text = play("Lise\npeut-être\nfemme\n1\n")
    assert text.count(QUESTION) == 2 and "Vous êtes morte" in text


def test_not_asked_when_the_flag_gives_it():
    game, _code, text = play("Lise\n1\n", gender="f")
    assert QUESTION not in text and "Vous êtes morte" in text
    assert game.state.gender == "f"


def test_not_asked_in_english():
    game = Game.new(load_book(BOOK), 1, hero=(10, 20, 9), lang="en")
    _game, _code, text = play("Lise\n1\n", game=game)
    assert "man or a woman" not in text


def test_the_gender_is_saved_and_loaded(tmp_path):
    book = load_book(BOOK)
    game = Game.new(book, 1, hero=(10, 20, 9), lang="fr")
    out = io.StringIO()
    PlainPlayer(game, io.StringIO("Lise\nf\n"), out, echo=True).play()  # input ends at §1
    path = tmp_path / "lise.json"
    save_game(game, path)
    assert '"gender": "f"' in path.read_text("utf-8")
    loaded, report = load_game(book, path)
    assert not report.fallback
    _game, code, text = play("1\n", game=loaded)
    assert code == EXIT_DEATH and QUESTION not in text and "Vous êtes morte" in text


def test_a_save_with_an_unknown_gender_is_refused(tmp_path):
    from dedale.errors import SaveError

    book = load_book(BOOK)
    game = Game.new(book, 1, hero=(10, 20, 9), name="Lise", lang="fr")
    game.state.gender = "f"
    path = tmp_path / "lise.json"
    save_game(game, path)
    path.write_text(path.read_text("utf-8").replace('"gender": "f"', '"gender": "x"'), "utf-8")
    with pytest.raises(SaveError) as raised:
        load_game(book, path)
    assert "gender" in str(raised.value) + str(raised.value.span)


def test_the_gender_book_is_clean():
    from dedale.validator import validate_path

    assert validate_path(BOOK, runs=50, seed=0).findings == []
