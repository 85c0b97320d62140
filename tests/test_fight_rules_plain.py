"""The fight-rules test book (issue 13.2) played end to end by the plain player with
scripted dice: damage per enemy each way, attack modifiers from items and state, events on
an assault (a counter, the enemy's SKILL, a shield's wound roll), an exit on a counter,
"survive N assaults" and "first assault won". Transcripts are snapshotted."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import EXIT_DEATH, EXIT_VICTORY, PlainPlayer

FIGHTS = Path(__file__).resolve().parent / "books_extra" / "fights"
HERO = (11, 20, 9)  # SKILL, STAMINA, LUCK
WIN = (1, 1, 3, 4)  # one assault: the enemy rolls 2, the hero 7
LOSE = (6, 6, 1, 1)  # the enemy rolls 12, the hero 2

# The mace (and shield): the skeleton takes the full 2; the viper is beaten; the wraith takes
# half (1) six times; the constrictor holds the hero (-1: 12 against 12, a tie that would
# have been won), then lets go; the captain rolls over a double of the hero (his SKILL 7 -> 5),
# the shield's die is a 6 (the wound is 1), then 14 against 14 (a tie his old SKILL would
# have won); the giant wins three assaults: the fight is survived; the duellist loses the
# first assault: through at once.
MACE = [
    *WIN * 2, *WIN * 2, *WIN * 6,
    *LOSE, 3, 3, 1, 1, *WIN * 2,
    6, 6, 2, 2, 6, 4, 5, 1, 2, *WIN * 2,
    *LOSE * 3, *WIN,
]  # fmt: skip
# The silver sword: the skeleton takes 1 four times; the wraith, 18 against the hero's 6 + 11
# + 2 = 19, is undone at once; the duellist wins the first assault, then falls in two.
SWORD = [
    *WIN * 4, *WIN * 2, 6, 5, 2, 4,
    *WIN * 2, *WIN * 2, *LOSE * 3, *LOSE, *WIN * 2,
]  # fmt: skip
NO_LUCK = "n\n" * 40


@pytest.fixture(scope="module")
def book():
    return load_book(FIGHTS)


def play(book, choice: int, dice, lang: str = "en") -> tuple[int, str, Game]:
    game = Game.new(book, 1, hero=HERO, name="Ari", lang=lang, free_stats=True)
    game.rng.force(dice)
    out = io.StringIO()
    script = f"{choice}\n1\n" + NO_LUCK
    code = PlainPlayer(game, io.StringIO(script), out, echo=True).play()
    return code, out.getvalue(), game


def test_the_mace_and_shield_path(book, snapshot):
    code, text, game = play(book, 1, MACE)
    assert code == EXIT_VICTORY
    assert [entry.paragraph for entry in game.state.history] == [1, 2, 4, 5, 6, 7, 8, 9, 10, 11]
    assert game.state.hero.stats["STAMINA"] == 20 - 2 - 1 - 6
    assert "WRAITH, STAMINA: 6 -> 5" in text  # half of 2
    assert "ORC CAPTAIN, SKILL: 7 -> 5" in text
    assert "The fight stops after 3 assaults." in text
    assert text == snapshot


def test_the_silver_sword_path(book, snapshot):
    code, text, game = play(book, 2, SWORD)
    assert code == EXIT_VICTORY
    assert "SKELETON, STAMINA: 4 -> 3" in text  # a blade does 1
    assert "WRAITH, STAMINA: 6 -> 0" in text  # undone at once
    assert "you 19, it 18" in text  # +2 against the wraith with the sword
    assert text == snapshot


def test_the_viper_s_second_bite_ends_the_fight(book, snapshot):
    code, text, game = play(book, 1, [*WIN * 2, 6, 6, 1, 2, 6, 6, 1, 2])
    assert code == EXIT_DEATH
    assert [entry.paragraph for entry in game.state.history][-2:] == [5, 12]
    assert game.state.hero.counters["bites"] == 2
    assert game.state.hero.stats["STAMINA"] == 14  # two bites of 3
    assert text == snapshot


def test_the_mace_path_in_french(book, snapshot):
    code, text, _ = play(book, 1, MACE, lang="fr")
    assert code == EXIT_VICTORY
    assert text == snapshot


def test_the_book_validates_with_no_finding_and_exact_odds_for_every_fight():
    from dedale.validator import validate_path

    report = validate_path(FIGHTS, runs=200)
    assert [f.code for f in report.findings] == []
    methods = {r.paragraph: r.method for r in report.fights}
    assert set(methods.values()) == {"exact"}, methods
    giant = next(r for r in report.fights if r.paragraph == 9)
    assert all(odds.win > 1 - 1e-9 for odds in giant.odds)  # three assaults always survived


def test_random_games_of_the_fight_rules_book_replay_exactly(book):
    from dedale.game.random_player import RandomPlayer
    from dedale.game.saving import replay_save, to_save

    endings = set()
    for seed in range(30):
        game = Game.new(book, seed, name="Ari")
        result = RandomPlayer(500 + seed).play(game, max_steps=seed % 7 * 10 + 5)
        assert result.error is None, result.error
        endings.add(game.outcome)
        replayed = replay_save(book, to_save(game))  # built with events, replayed quietly
        assert replayed.difference is None, (seed, replayed.difference)
        assert replayed.decisions == len(game.decisions)
    assert {"victory", "death"} <= endings
