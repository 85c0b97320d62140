"""The book-state test book (issue 13 §4) played end to end by the plain player: a companion
flag (the calf), hidden flags (corridors searched), a counter of lieutenants met tested with
``>=`` and shown among the stats, counted items (two tooth-pieces), ``if you have 1 …``.
Transcripts are snapshotted; saves of random games replay exactly, through a file too. Its
French twin (``state-fr``: French book.yaml keys and keywords) plays the same way."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.game.random_player import RandomPlayer
from dedale.game.saving import replay_save, to_save
from dedale.language import load_book
from dedale.plain.player import EXIT_DEATH, EXIT_VICTORY, PlainPlayer
from dedale.saves import read_save, write_save
from dedale.validator import validate_loaded

STATE = Path(__file__).resolve().parent / "books_extra" / "state"
STATE_FR = STATE.with_name("state-fr")


@pytest.fixture(scope="module")
def book():
    return load_book(STATE)


def play(book, lines: str, lang: str = "en") -> tuple[int, str, Game]:
    game = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang=lang)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue(), game


# the calf, the gate, the west corridor and back, the east corridor and back, the sheet,
# the stable and back, the sheet, the inner door, naming the lieutenants
VICTORY = "1\n1\n1\n1\n1\n1\n1\nsheet\n1\n1\nsheet\n1\n1\n"


def test_victory_with_the_calf_and_three_lieutenants(book, snapshot):
    code, text, game = play(book, VICTORY)
    assert code == EXIT_VICTORY
    assert [e.paragraph for e in game.state.history] == [1, 2, 3, 10, 4, 10, 5, 10, 7, 10, 6, 8]
    assert game.state.counts == {"lieutenants met": 3}
    assert game.state.flags == {"searched west corridor", "searched east corridor"}
    assert "  Lieutenants met: 2\n  Items:\n    Tooth-piece x2\n  Notes: A calf follows you" in text
    assert "  Lieutenants met: 3\n  Items:\n    Tooth-piece x2\nYour choice?" in text  # calf gone
    assert "Crossed out: A calf follows you." in text
    assert "With 3 lieutenants to" in text  # the counter in the text
    assert "searched" not in text.lower().split("§ 1", 1)[1].replace("search the", "")
    assert text == snapshot


def test_victory_in_french(book, snapshot):
    code, text, _ = play(book, VICTORY.replace("sheet", "feuille"), lang="fr")
    assert code == EXIT_VICTORY
    assert "  Lieutenants met\u00a0: 2\n" in text and "  Notes\u00a0: A calf follows you" in text
    assert text == snapshot


def test_alone_and_without_a_tooth_the_bluff_kills(book, snapshot):
    # alone, the gate, straight to the inner door: naming the lieutenants is greyed out
    code, text, game = play(book, "2\n1\n3\n2\n")
    assert code == EXIT_DEATH
    assert "(1. Name the lieutenants and show the two tooth-pieces -- unavailable" in text
    assert "Lieutenants met: 2" not in text and game.state.flags == set()
    assert text == snapshot


def test_one_tooth_piece_saves_the_bluffer(book):
    # alone, the gate, the east corridor (a tooth, no lieutenant), the door, the bluff
    code, text, game = play(book, "2\n1\n2\n1\n2\n2\n")
    assert [e.paragraph for e in game.state.history][-4:] == [10, 6, 9, 11]
    assert "  1. Name the lieutenants" not in text  # 1 lieutenant and 1 tooth: still greyed


def test_the_book_is_clean_for_the_validator(book):
    report = validate_loaded(book, str(STATE), runs=300)
    assert [f"{f.code} {f.message}" for f in report.findings] == []
    assert report.playthroughs is not None and report.playthroughs.errors == 0


def test_random_games_of_the_state_book_replay_exactly(book, tmp_path):
    endings = set()
    for seed in range(30):
        game = Game.new(book, seed, name="Ari")
        result = RandomPlayer(500 + seed).play(game, max_steps=seed % 7 * 3 + 2)
        assert result.error is None, result.error
        endings.add(game.outcome)
        data = to_save(game)
        replayed = replay_save(book, data)  # built with events, replayed quietly
        assert replayed.difference is None, (seed, replayed.difference)
        path = write_save(tmp_path / f"{seed}.json", data)
        again = read_save(path)  # the file's flags and counts pass the save checks
        assert again.state == data.state
    assert {"victory", "death"} <= endings


def test_the_state_is_written_in_saves(book, tmp_path):
    _, _, game = play(book, "1\n1\n1\n1\n")
    saved = json.loads(write_save(tmp_path / "s.json", to_save(game)).read_text("utf-8"))
    assert saved["state"]["flags"] == ["calf following", "searched west corridor"]
    assert saved["state"]["counts"] == {"lieutenants met": 2}


def test_the_french_twin_plays_the_same_story(book, snapshot):
    french = load_book(STATE_FR)
    code, text, game = play(french, VICTORY.replace("sheet", "feuille"), lang="fr")
    _, _, english = play(book, VICTORY)
    assert code == EXIT_VICTORY
    assert [e.paragraph for e in game.state.history] == [e.paragraph for e in english.state.history]
    assert game.state.counts == {"lieutenants rencontrés": 3}
    assert game.state.flags == {"couloir ouest fouillé", "couloir est fouillé"}
    assert "  Lieutenants rencontrés\u00a0: 2\n" in text
    assert "  Notes\u00a0: Un veau vous suit" in text and "Rayé\u00a0: Un veau vous suit." in text
    assert text == snapshot


def test_the_french_twin_is_clean_for_the_validator():
    french = load_book(STATE_FR)
    report = validate_loaded(french, str(STATE_FR), runs=300)
    assert [f"{f.code} {f.message}" for f in report.findings] == []
