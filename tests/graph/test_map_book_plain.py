"""The map's test books (tests/books_extra/map and map-fr) played by the plain player: the
ways the map draws are the ways a reader takes (transcripts snapshotted)."""

from __future__ import annotations

import io
from pathlib import Path

from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_VICTORY, PlainPlayer

BOOKS = Path(__file__).resolve().parents[1] / "books_extra"
HERO = (10, 20, 9)  # SKILL, STAMINA, LUCK


def play(folder: str, lines: str, force=(), lang: str = "en") -> tuple[int, str, Game]:
    game = Game.new(load_book(BOOKS / folder), 1, hero=HERO, name="Ari", lang=lang,
                    free_stats=True)  # fmt: skip
    game.rng.force(force)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue(), game


def test_towpath_luck_and_ladder(snapshot):
    # the towpath, Luck 1+2 = 3 <= 9: lucky; climb the ladder (SKILL 10 >= 9); home
    code, text, game = play("map", "1\n2\n1\n", force=[1, 2])
    assert code == EXIT_VICTORY
    assert [entry.paragraph for entry in game.state.history] == [1, 2, 3, 6, 7]
    assert text == snapshot


def test_the_millers_number_in_french(snapshot):
    # suivre le panneau (mot-code BORNE noté), le numéro du meunier : 30, rentrer
    code, text, game = play("map-fr", "2\n3\n30\n1\n", lang="fr")
    assert code == EXIT_VICTORY
    assert [entry.paragraph for entry in game.state.history] == [1, 3, 30, 7]
    assert text == snapshot
