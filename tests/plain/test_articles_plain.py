"""Fight narration that reads like the book (issue 16.5), played end to end by the plain
player on tests/books_extra/articles: enemies written with their article
(``> ennemi la GOULE``, ``> enemy the GOBLIN``), a group fighting as one (plural verbs, the
names joined "le Rat gris et le Rat borgne"), a proper name without article, the questions
as a French book asks them and French typography. Transcripts are snapshotted."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "articles"
LOST, WON = (6, 6, 1, 1), (1, 1, 6, 6)  # the enemy's two dice, then the hero's
DICE = [*LOST, *WON, *WON, *WON, *WON]


def play(lang: str) -> tuple[int, str]:
    game = Game.new(load_book(BOOKS / lang), 1, hero=(10, 20, 9), name="Ari", lang=lang)
    game.rng.force(DICE)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO("1\n" + "n\n" * 5), out, echo=True).play()
    return code, out.getvalue()


def test_french_narration(snapshot):
    code, text = play("fr")
    assert code == EXIT_VICTORY
    assert "Assaut 1 contre le GOBELIN\u00a0: vous 12, lui 17. Il vous blesse." in text
    assert "Vous le blessez." in text
    assert "Le GOBELIN est vaincu." in text
    assert "le Rat gris et le Rat borgne\u00a0: vous 22, eux 6. Vous les blessez." in text
    assert "Le Rat gris et le Rat borgne sont vaincus." in text
    assert "Assaut 1 contre la GOULE\u00a0: vous 22, elle 6. Vous la blessez." in text
    assert "La GOULE est vaincue." in text
    assert "voulez-vous tenter votre Chance" in text
    assert "«\u00a0Halte\u202f!\u00a0» crie-t-il\u00a0: personne n'entre ici\u202f;" in text
    assert text == snapshot


def test_english_narration(snapshot):
    code, text = play("en")
    assert code == EXIT_VICTORY
    assert "Assault 1 against the GOBLIN: you 12, it 17. It wounds you." in text
    assert "The GOBLIN is defeated." in text
    assert "they 6. You wound them." in text
    assert "The Grey Rat and the One-eyed Rat are defeated." in text
    assert "Corvin is defeated." in text
    assert text == snapshot


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_article_is_not_part_of_the_name(lang):
    book = load_book(BOOKS / lang)
    fight = next(s for s in book.paragraphs[5].body if type(s).__name__ == "Fight")
    (enemy,) = fight.enemies
    assert (enemy.article, enemy.name) == (
        {"fr": "le", "en": "the"}[lang],
        "GOBELIN" if lang == "fr" else "GOBLIN",
    )


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_the_test_books_are_clean(lang):
    from dedale.validator import validate_path

    assert validate_path(BOOKS / lang, runs=50, seed=0).findings == []
