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
