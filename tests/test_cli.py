"""The command line's surface: help, version, subcommands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import dedale
import pytest
from dedale.cli import SUBCOMMANDS, main


def test_version(capsys):
    try:
        main(["--version"])
    except SystemExit as exit_:
        assert exit_.code == 0
    assert dedale.__version__ in capsys.readouterr().out


def test_help_lists_subcommands():
    out = subprocess.run(
        [sys.executable, "-m", "dedale", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for name in SUBCOMMANDS:
        assert name in out


def test_closed_output_pipe_exits_quietly():
    """`dedale odds --json | head -c 100`: the reader went away; no BrokenPipeError traceback."""
    import os

    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read: every write fails with EPIPE
    try:
        done = subprocess.run(
            [sys.executable, "-m", "dedale", "odds", "--hero", "10", "20", "--enemy", "8", "10"]
            + ["--json"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 141


def test_a_crash_exits_non_zero_and_says_where_to_report(monkeypatch, capsys, tmp_path):
    import dedale.commands.odds as odds

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))

    def broken(args):
        raise RuntimeError("a bug")

    monkeypatch.setattr(odds, "run", broken)
    code = main(["odds", "--hero", "10", "20", "--enemy", "8", "10"])
    err = capsys.readouterr().err
    assert code == 70
    assert "bug in Dédale" in err and "RuntimeError" in err
    assert "Reporting a bug" in err
    reports = list(tmp_path.glob("dedale-crash-*.txt"))
    assert len(reports) == 1 and str(reports[0]) in err
    assert "RuntimeError: a bug" in reports[0].read_text(encoding="utf-8")


def _play_plain(monkeypatch, capsys, *argv: str, typed: str) -> tuple[int, str, str]:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["play", *argv, "--plain", "--seed", "1"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_books_lists_the_bundled_books(capsys):
    assert main(["books"]) == 0
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if line.startswith("tutorial "))
    assert "en" in line and "df-classic" in line and "The Scriptorium" in line
    assert "le-puits-des-ombres" in out and "(default)" in out


def test_books_json(capsys):
    import json

    assert main(["books", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"name": "first-steps", "title": "First Steps", "language": "en",
            "ruleset": "df-classic"} in rows  # fmt: skip


def test_play_a_bundled_book_by_name(monkeypatch, capsys):
    code, out, err = _play_plain(monkeypatch, capsys, "tutorial", typed="\n")
    assert code == 4  # the input ended at the first choice
    assert "Welcome, apprentice" in out and err == ""


def test_play_an_unknown_name_lists_the_bundled_books(monkeypatch, capsys):
    code, out, err = _play_plain(monkeypatch, capsys, "no-such-book", typed="")
    assert code == 2
    assert "no book at no-such-book" in err and "tutorial" in err


@pytest.mark.parametrize(
    ("lang", "keyword"), [("en", "> take Lantern"), ("fr", "> prenez Lanterne")]
)
def test_new_writes_a_starter_book_that_validates_strict_and_plays_to_an_ending(
    tmp_path, monkeypatch, capsys, lang, keyword
):
    folder = tmp_path / f"book-{lang}"
    assert main(["new", str(folder), "--lang", lang]) == 0
    capsys.readouterr()
    source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.dd")))
    assert keyword in source
    assert main(["validate", "--strict", "--runs", "200", str(folder)]) == 0  # no warning
    capsys.readouterr()
    # name (default), [French: the hero's gender, Enter keeps it], left tunnel, on to the
    # hall, light the lantern: victory
    gender = "\n" if lang == "fr" else ""
    typed = "\n" + gender + "1\n1\n1\n"
    code, out, err = _play_plain(monkeypatch, capsys, str(folder), typed=typed)
    assert code == 0, out + err
    turn_to = {"en": "Turn to 4", "fr": "Rendez-vous au 4"}[lang]
    typed = "\n" + gender + "2\n1\n2\n"
    code, out, err = _play_plain(monkeypatch, capsys, str(folder), typed=typed)
    assert code == 3  # right tunnel, run blindly: death
    assert f"1. {turn_to}" in out


def test_new_never_overwrites(tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["new", str(tmp_path / "taken")]) == 2  # a French book (the default): French
    assert "existe déjà" in capsys.readouterr().err
    assert main(["new", str(tmp_path / "taken"), "--lang", "en"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "taken" / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert main(["new", str(tmp_path / "x"), "--ruleset", "nope", "--lang", "en"]) == 2
    assert "built-in rulesets" in capsys.readouterr().err


def test_hero_values_before_the_book_leave_the_book_to_the_command():
    from dedale.cli import values_last

    assert values_last(["play", "--hero", "9", "18", "9", "b/", "--plain"]) == [
        "play", "b/", "--plain", "--hero", "9", "18", "9",
    ]  # fmt: skip
    assert values_last(["play", "b/", "--hero", "9", "18", "9"]) == [
        "play", "b/", "--hero", "9", "18", "9",
    ]  # fmt: skip
    assert values_last(["solve", "--hero", "9", "--json"]) == ["solve", "--hero", "9", "--json"]


def test_solve_takes_the_hero_before_the_book(capsys):
    from dedale.cli import main

    book = str(Path(__file__).resolve().parents[1] / "books" / "first-steps")
    assert main(["solve", "--hero", "10", "20", "9", book, "--luck", "none", "--json"]) == 0
    assert '"win_probability"' in capsys.readouterr().out
