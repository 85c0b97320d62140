"""The command line's surface: help, version, subcommands."""

from __future__ import annotations

import subprocess
import sys

import dedale
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
