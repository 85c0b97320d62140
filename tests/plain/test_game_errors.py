"""A book that stops the game mid-way (a GameError, e.g. a loop of forced jumps) ends the plain
player with the located message and a non-zero exit code, never a traceback or a hang."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from dedale.cli import main
from dedale.errors import GameError
from dedale.game import Game
from dedale.span import Span

BOOK = Path(__file__).resolve().parent.parent / "game" / "books" / "trail.dd"


def test_a_game_error_mid_game_is_located_and_exits_1(monkeypatch, capsys):
    original = Game.next

    def next_or_stop(self):
        if self.decisions:
            raise GameError(
                "paragraphs 2 → 7 → 2 loop with nothing to decide",
                Span(str(BOOK), 12, 1),
                hint="give one of them a choice",
            )
        return original(self)

    monkeypatch.setattr(Game, "next", next_or_stop)
    monkeypatch.setattr(sys, "stdin", io.StringIO("Ari\n1\n"))
    code = main(["play", str(BOOK), "--plain", "--seed", "1", "--hero", "10", "20", "9"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"{BOOK}:12:1: paragraphs 2 → 7 → 2 loop with nothing to decide" in err
    assert "hint: give one of them a choice" in err and "Traceback" not in err


def test_a_bug_in_the_plain_player_exits_70_with_a_crash_report(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))

    def broken(self):
        raise KeyError("a bug")

    monkeypatch.setattr(Game, "next", broken)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["play", str(BOOK), "--plain", "--seed", "1"])
    err = capsys.readouterr().err
    assert code == 70
    assert "bug in Dédale" in err and "dedale-crash-" in err
