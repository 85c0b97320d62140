"""The test-forms book (issue 13 §6) played end to end by the plain player: an optional
Skill test with a modifier that depends on the dagger (accepted, then declined), a loss of
the amount rolled (ROLL), a Skill test repeated until success (each failure costing
STAMINA, each roll shown, the hero dying of it), two rolls compared, and a Luck test with a
conditional modifier. Transcripts are snapshotted."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.game.random_player import RandomPlayer
from dedale.game.saving import replay_save, to_save
from dedale.language import load_book
from dedale.plain.player import EXIT_DEATH, EXIT_VICTORY, PlainPlayer

TESTS_BOOK = Path(__file__).resolve().parent / "books_extra" / "tests"
HERO = (10, 20, 9)  # SKILL, STAMINA, LUCK


@pytest.fixture(scope="module")
def book():
    return load_book(TESTS_BOOK)


def play(book, lines: str, force=(), lang: str = "en", hero=HERO) -> tuple[int, str, Game]:
    game = Game.new(book, 1, hero=hero, name="Ari", lang=lang, free_stats=True)
    game.rng.force(list(force))
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue(), game


def history(game: Game) -> list[int]:
    return [entry.paragraph for entry in game.state.history]


# rope: 6+4 = 10 > SKILL 10 - 1 (dagger): failure, -2 STAMINA; gate: 5+6 fails (-1), 3+3
# succeeds; bones: 2+6 (+1 dagger) = 9 against 6+5 = 11, lower; Luck: 5+5 = 10 <= 9 + 1.
DAGGER_DICE = [6, 4, 5, 6, 3, 3, 2, 6, 6, 5, 5, 5]


def test_with_the_dagger_every_modifier_counts(book, snapshot):
    code, text, game = play(book, "1\n1\ny\n", DAGGER_DICE)
    assert code == EXIT_VICTORY
    assert history(game) == [1, 2, 3, 5, 6, 8, 7]
    assert text.count("A modifier counts on this roll: ") == 3  # rope -1, bones +1, Luck +1
    assert "Test of Skill: 10 against 9, failure" in text
    assert "9 against 11: your roll is lower." in text
    assert "Test of Luck: 10 against 10, lucky" in text
    hero = game.state.hero
    assert (hero.stats["STAMINA"], hero.stats["LUCK"]) == (17, 8)
    assert text == snapshot


# long path: a 3 (ROLL); gate: 6+6 fails, 1+1; bones: 1+5 against 5+2, lower; Luck: 6+6.
# unlucky: 1d6 = 4.
DECLINED_DICE = [3, 6, 6, 1, 1, 1, 5, 5, 2, 6, 6, 4]


def test_declining_the_rope_in_french(book, snapshot):
    code, text, game = play(book, "2\nn\n1\n", DECLINED_DICE, "fr")
    assert code == EXIT_VICTORY
    assert history(game) == [1, 3, 4, 5, 6, 8, 7]
    assert "Habileté\u00a0: tentez-vous le test\u202f? (o/n)" in text
    assert "6 contre 7\u00a0: votre jet est inférieur." in text
    assert "ENDURANCE : 20 -> 17".replace(" :", "\u00a0:") in text  # ROLL = 3
    assert game.state.hero.stats["STAMINA"] == 12  # 20 - 3 - 1 - 4
    assert text == snapshot


def test_a_weak_hero_dies_forcing_the_gate(book, snapshot):
    code, text, game = play(book, "3\n1\n", [1, 6, 6, 6, 6, 6], hero=(10, 3, 9))
    assert code == EXIT_DEATH
    assert game.state.death_reason == "health"
    assert history(game) == [1, 4, 5]
    assert text.count("Test of Skill: 12 against 10, failure") == 2
    assert text.count("Failed: you roll again.") == 1
    assert text == snapshot


def test_random_games_of_the_test_forms_book_replay_exactly(book):
    """Saves made anywhere (at an optional test's question too) replay to the same state."""
    endings = set()
    for seed in range(40):
        game = Game.new(book, seed, name="Ari")
        result = RandomPlayer(2000 + seed).play(game, max_steps=seed % 7 + 1)
        assert result.error is None, result.error
        endings.add(game.outcome)
        replayed = replay_save(book, to_save(game))  # built with events, replayed quietly
        assert replayed.difference is None, (seed, replayed.difference)
        assert replayed.decisions == len(game.decisions)
    assert {"victory", None} <= endings


FRENCH_BOOK = TESTS_BOOK.parent / "tests_fr"


def test_the_french_book_with_french_keywords(snapshot):
    """The same constructs written with the French keywords, played in French: the dagger,
    the rope (a failure), the gate (one failure at 2 ENDURANCE), the bones (lower), Luck."""
    code, text, game = play(load_book(FRENCH_BOOK), "1\n1\no\n", DAGGER_DICE, "fr")
    assert code == EXIT_VICTORY
    assert history(game) == [1, 2, 3, 5, 6, 8, 7]
    assert "Habileté\u00a0: tentez-vous le test\u202f? (o/n)" in text
    assert "Votre jet\u00a0: 2 + 6 = 8" in text
    assert game.state.hero.stats["STAMINA"] == 16  # 20 - 2 (the rope) - 2 (the gate)
    assert text == snapshot
