"""The plain player: scripted stdin, transcripts snapshotted, exit codes."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import (
    EXIT_BOOK_ERROR,
    EXIT_DEATH,
    EXIT_INPUT_ENDED,
    EXIT_USAGE,
    EXIT_VICTORY,
    PlainPlayer,
)

ROOT = Path(__file__).resolve().parent.parent.parent
TRAIL = ROOT / "tests" / "game" / "books" / "trail.dd"
BOOKS = Path(__file__).parent / "books"


@pytest.fixture(scope="module")
def trail():
    return load_book(TRAIL)


def transcript(book, lines: str, seed: int = 1, force=(), **creation) -> tuple[int, str]:
    creation.setdefault("hero", (10, 20, 9))
    creation.setdefault("name", "Ari")
    game = Game.new(book, seed, **creation)
    game.rng.force(force)
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue()


def test_victory_with_sheet_and_a_meal(trail, snapshot):
    # luck 2+2: lucky; table 5 -> 12; the meal at full STAMINA is confirmed (y)
    script = "1\nsheet\n4\nxyz\n2\neat\ny\n3\n1\n"
    code, text = transcript(trail, script, force=[2, 2, 5], lang="en")
    assert code == EXIT_VICTORY
    assert text == snapshot


def test_death_in_french(trail, snapshot):
    code, text = transcript(trail, "1\n3\nmanger\n1\n2\n", force=[6, 6], lang="fr")
    assert code == EXIT_DEATH
    assert "Vous êtes mort" in text
    assert text == snapshot


def test_fight_with_luck_questions(trail, snapshot):
    force = [2, 2, 1, 1, 1, 6, 6, 1, 1, 6, 6, 4, 4]
    code, text = transcript(trail, "1\n3\n1\no\nn\n", force=force, lang="fr")
    assert code == EXIT_VICTORY
    assert text == snapshot


def test_undo_and_input_ending_early(trail, snapshot):
    code, text = transcript(trail, "1\nundo\nannuler\n1\n", lang="en")
    assert code == EXIT_INPUT_ENDED
    assert text == snapshot


def test_quit(trail):
    code, text = transcript(trail, "quit\n", lang="en")
    assert code == EXIT_INPUT_ENDED


def test_save_and_load(trail, tmp_path):
    save = tmp_path / "game.dsave"
    code, text = transcript(trail, f"1\nsave {save}\n", lang="en")
    assert code == EXIT_INPUT_ENDED and f"(game saved to {save})" in text
    result = run(["--load", str(save), str(TRAIL)], "3\n")
    assert result.returncode == EXIT_INPUT_ENDED
    assert "§ 2" in result.stdout and "§ 7" in result.stdout
    recorded = run(["--load", str(save)], "3\n")  # the save knows its book
    assert recorded.stdout == result.stdout


def run(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dedale", "play", "--plain", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_exit_codes_from_the_command_line(tmp_path):
    won = run([str(TRAIL), "--seed", "4", "--hero", "12", "24", "12", "--name", "A"], "1\n")
    assert won.returncode == EXIT_INPUT_ENDED  # input ended before the end
    source = TRAIL.read_text(encoding="utf-8")
    dead_end_book = tmp_path / "dead_end.dd"
    dead_end_book.write_text(source.replace("-> 10 Jump into the river\n", ""), encoding="utf-8")
    # STAMINA 4 is below what creation rolls: only playtest mode accepts it (issue 12.15)
    weak = ["--seed", "1", "--name", "A", "--playtest", "--hero", "9", "4", "9"]
    dead_end = run([str(dead_end_book), *weak], "1\n3\n1\n")  # STAMINA 4 < 5 at paragraph 8
    assert dead_end.returncode == EXIT_BOOK_ERROR
    assert "paragraph 8 is a dead end" in dead_end.stderr
    assert "dead_end.dd:" in dead_end.stderr and "^" in dead_end.stderr
    broken = tmp_path / "broken.dd"
    broken.write_text(source + "\n§ 4\nThe same number again.\n> victory\n", encoding="utf-8")
    load_error = run([str(broken)], "")
    assert load_error.returncode == EXIT_BOOK_ERROR and "broken.dd:" in load_error.stderr
    bad_hero = run([str(TRAIL), "--hero", "1", "2", "3", "4", "5"], "")
    assert bad_hero.returncode == EXIT_USAGE and "--hero gives 5 values" in bad_hero.stderr
    missing = run([str(tmp_path / "nope")], "")
    assert missing.returncode == EXIT_USAGE
