"""The amateur test book (issue 8) played end to end by the plain player: hidden number,
noted and previous paragraphs, a free-form dice test, a status, a forced meal, a
book-declared stat with its own test, computed destinations. Transcripts are snapshotted."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.game.random_player import RandomPlayer
from dedale.game.saving import replay_save, to_save
from dedale.language import load_book
from dedale.plain.player import EXIT_DEATH, EXIT_VICTORY, PlainPlayer

AMATEUR = Path(__file__).resolve().parent / "books_extra" / "amateur"
HERO = (10, 20, 9, 8)  # SKILL, STAMINA, LUCK and the book's own MAGIC


@pytest.fixture(scope="module")
def book():
    return load_book(AMATEUR)


def play(book, lines: str, force=(), lang: str = "en", hero=HERO) -> tuple[int, str, Game]:
    game = Game.new(book, 1, hero=hero, name="Ari", lang=lang, free_stats=True)
    game.rng.force(force)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue(), game


# Two assaults won against the spectre (4+1+1 = 6 against MAGIC 8+3+3 = 14), the wisp
# losing its exchanges (5+1+1 against 4+6+6; the spectre strikes the hero only), the
# assault table's die a 2 (no effect); 4d6 =
# 1+1+6+2 (+2) = 12 <= STAMINA 17: success; table 1d6 = 2: 4 gold; MAGIC test 2d6 =
# 6+3 = 9 > 8; the wager's die: 5, won.
VICTORY_DICE = [*(1, 1, 3, 3, 1, 1, 6, 6, 2) * 2, 1, 1, 6, 2, 2, 6, 3, 5]


def test_victory_through_every_construct(book, snapshot):
    # well, door, a wrong number, back, 24, through, no Luck on the two wounds, sheet, the
    # key, buy a herb, leave the shop, bet 2 gold, climb the stair
    script = "2\n1\n7\n1\n24\n1\nn\nn\nsheet\n1\n1\n3\n2\n2\n"
    code, text, game = play(book, script, VICTORY_DICE)
    assert code == EXIT_VICTORY
    assert [entry.paragraph for entry in game.state.history] == [
        1, 10, 1, 2, 3, 2, 24, 5, 6, 70, 9, 90,
    ]  # fmt: skip
    assert "Statuses: Poisoned" in text
    hero = game.state.hero
    assert (hero.counters["gold"], hero.items.get("Healing Herb"), hero.stats["LUCK"]) == (4, 1, 9)
    assert text == snapshot


def test_victory_in_french(book, snapshot):
    script = "1\n24\n1\nn\nn\nfeuille\n1\n1\n3\n2\n2\n"
    code, text, _ = play(book, script, VICTORY_DICE, lang="fr")
    assert code == EXIT_VICTORY
    assert "États\u00a0: Poisoned" in text
    assert text == snapshot


def test_poison_kills_a_weak_hero(book, snapshot):
    # STAMINA 2: the chill takes 1 after the first assault, which stops the fight (STAMINA
    # falls to 15 or less: §7); the poison takes the last one on entering 7.
    script = "1\n24\n1\nn\n"
    code, text, game = play(book, script, [1, 1, 3, 3, 1, 1, 6, 6, 2], hero=(10, 2, 9, 8))
    assert code == EXIT_DEATH
    assert game.state.death_reason == "health"
    assert [entry.paragraph for entry in game.state.history][-2:] == [5, 7]
    assert text == snapshot


def test_a_wrong_number_and_not_knowing(book):
    code, text, game = play(book, "1\n-5\n1\n0\n2\n", [])
    assert [entry.paragraph for entry in game.state.history][:6] == [1, 2, 3, 2, 3, 1]
    assert "Which number do you turn to?" in text


def test_random_games_of_the_amateur_book_replay_exactly(book):
    endings = set()
    for seed in range(40):
        game = Game.new(book, seed, name="Ari")
        result = RandomPlayer(1000 + seed).play(game, max_steps=seed % 9 * 6 + 4)
        assert result.error is None, result.error
        endings.add(game.outcome)
        replayed = replay_save(book, to_save(game))  # built with events, replayed quietly
        assert replayed.difference is None, (seed, replayed.difference)
        assert replayed.decisions == len(game.decisions)
    assert {"victory", None} <= endings
