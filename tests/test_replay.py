"""Replaying a save's decision log from its seed reproduces the state exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dedale.cli import main
from dedale.game import Game
from dedale.game.random_player import RandomPlayer
from dedale.game.saving import replay_save, save_game, to_save
from dedale.language import load_book

ROOT = Path(__file__).resolve().parent.parent
TEST_BOOKS = ROOT / "tests" / "game" / "books"
BOOKS = sorted(TEST_BOOKS.glob("*.dd")) + sorted(p.parent for p in ROOT.glob("books/*/book.yaml"))


@pytest.fixture(scope="module", params=BOOKS, ids=lambda p: p.stem)
def book(request):
    return load_book(request.param)


def test_many_random_games_replay_exactly(book):
    endings = set()
    for seed in range(30):
        game = Game.new(book, seed, name="Ari")  # stats (and class) rolled from the seed
        result = RandomPlayer(1000 + seed).play(game, max_steps=seed % 7 * 8 + 3)
        assert result.error is None, result.error
        endings.add((game.outcome, len(game.decisions)))
        data = to_save(game)  # the state is built with events on, replayed quietly
        replayed = replay_save(book, data)
        assert replayed.difference is None, (seed, replayed.difference)
        assert replayed.decisions == len(game.decisions)
    assert len(endings) > 1  # games stopped at various points, or ended


def test_a_tampered_state_is_reported(book):
    game = Game.new(book, 3, name="Ari")
    RandomPlayer(3).play(game, max_steps=3)
    data = to_save(game)
    stat = book.ruleset.stats[0].id
    data.state["hero"]["stats"][stat] += 1
    result = replay_save(book, data)
    assert result.difference is not None and f"state.hero.stats.{stat}" in result.difference


def test_replay_command(tmp_path, capsys):
    book = load_book(TEST_BOOKS / "trail.dd")
    game = Game.new(book, 11, name="Ari")
    RandomPlayer(11).play(game, max_steps=4)
    path = save_game(game, tmp_path / "g.dsave")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"replay of {path}: {len(game.decisions)} decisions from seed 11")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["state"]["codewords"] = ["FORGED"]
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path), "--book", str(TEST_BOOKS / "trail.dd")]) == 1
    assert "state.codewords" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "nothing.dsave")]) == 1
    assert "no save file at" in capsys.readouterr().err
