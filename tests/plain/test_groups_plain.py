"""A group of like enemies written once with a plural name (issue 16.5), played end to end
by the plain player on tests/books_extra/groups: ``> ennemis les trois RATS … chacun`` fought
one after another ("le premier RAT", "le deuxième RAT"), ``> ennemis deux CHOUETTES …
chacune`` fought as one (feminine plural: "Les deux CHOUETTES sont vaincues"), in French
and English. Transcripts are snapshotted; malformed groups are located errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.errors import BookError
from dedale.game import Game
from dedale.language import load_book, parse_text
from dedale.plain.player import EXIT_VICTORY, PlainPlayer

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "groups"
LOST, WON = (6, 6, 1, 1), (1, 1, 6, 6)  # the enemy's two dice, then the hero's
DICE = [LOST, *[WON] * 5]


def play(lang: str) -> tuple[int, str]:
    game = Game.new(load_book(BOOKS / lang), 1, hero=(10, 20, 9), name="Ari", lang=lang)
    game.rng.force([face for roll in DICE for face in roll])
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO("n\n" * 8), out, echo=True).play()
    return code, out.getvalue()


def test_french_group_narration(snapshot):
    code, text = play("fr")
    assert code == EXIT_VICTORY
    assert "  le premier RAT (HABILETÉ 4, ENDURANCE 2)\n" in text
    assert "Assaut 1 contre le premier RAT\u00a0: vous 12, lui 16. Il vous blesse." in text
    assert "Le deuxième RAT est vaincu." in text
    assert "Les deux CHOUETTES lancent les dés" in text
    assert "elles 6. Vous les blessez." in text
    assert "Les deux CHOUETTES sont vaincues." in text
    assert text == snapshot


def test_english_group_narration(snapshot):
    code, text = play("en")
    assert code == EXIT_VICTORY
    assert "Assault 1 against the first RAT: you 12, it 16. It wounds you." in text
    assert "The third RAT is defeated." in text
    assert "The two OWLS roll" in text
    assert "they 6. You wound them." in text
    assert "The two OWLS are defeated." in text
    assert text == snapshot


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_group_line_gives_its_enemies(lang):
    book = load_book(BOOKS / lang)
    fight = next(s for s in book.paragraphs[1].body if type(s).__name__ == "Fight")
    assert [e.name for e in fight.enemies] == ["RAT 1", "RAT 2", "RAT 3"]
    assert fight.mode == "sequence"
    assert {e.group.plural for e in fight.enemies} == {"RATS"}
    owls = next(s for s in book.paragraphs[2].body if type(s).__name__ == "Fight")
    assert owls.mode == "as_one" and len(owls.enemies) == 2
    assert owls.enemies[0].group.feminine is (lang == "fr")


def test_a_singular_after_a_slash_and_rules_under_the_group():
    book = parse_text(
        "§ 1\n> combat\n> ennemis 3 CHEVAUX / CHEVAL HABILETÉ 5 ENDURANCE 4 chacun\n"
        "> il inflige 3\n> victoire -> 2\n§ 2\n> victoire\n",
        "b.dd",
    )
    fight = book.paragraphs[0].body[0]
    assert [e.name for e in fight.enemies] == ["CHEVAL 1", "CHEVAL 2", "CHEVAL 3"]
    assert sorted(rule.enemy for rule in fight.rules) == [0, 1, 2]


@pytest.mark.parametrize(
    ("line", "message", "column"),
    [
        ("> enemies RATS SKILL 5 STAMINA 4 each", "needs its number", 11),
        ("> ennemis 1 RAT HABILETÉ 5 ENDURANCE 4 chacun", "", 11),
        ("> enemies 30 RATS SKILL 5 STAMINA 4 each", "", 11),
    ],
)
def test_a_malformed_group_is_a_located_error(line, message, column):
    with pytest.raises(BookError) as raised:
        load_text = f"§ 1\n> fight\n{line}\n> win -> 2\n§ 2\n> victory\n"
        parse_text(load_text, "b.dd")
    error = raised.value
    errors = getattr(error, "errors", [error])
    first = errors[0]
    assert message in str(first)
    assert (first.span.file, first.span.line, first.span.column) == ("b.dd", 3, column)
    assert first.hint


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_group_books_are_clean(lang):
    from dedale.validator import validate_path

    assert validate_path(BOOKS / lang, runs=50, seed=0).findings == []


def test_a_group_fighting_together_is_offered_by_place(tmp_path):
    (tmp_path / "book.yaml").write_text(
        "title: Loups\nlanguage: fr\nruleset: df-classic\nstart: 1\n", "utf-8"
    )
    (tmp_path / "book.dd").write_text(
        "§ 1\nDeux loups vous encerclent.\n> combat ensemble\n"
        "> ennemis deux LOUPS HABILETÉ 4 ENDURANCE 2 chacun\n> victoire -> 2\n§ 2\n> victoire\n",
        "utf-8",
    )
    game = Game.new(load_book(tmp_path), 1, hero=(10, 20, 9), name="Ari", lang="fr")
    game.rng.force([1, 1, 6, 6, 1, 1] * 4)
    out = io.StringIO()
    PlainPlayer(game, io.StringIO("2\nn\n" * 4), out, echo=True).play()
    text = out.getvalue()
    assert "  1. Premier LOUP\n  2. Deuxième LOUP\n" in text, text
    assert "contre le deuxième LOUP" in text
