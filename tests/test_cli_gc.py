"""The ``dedale`` command tunes the garbage collector for its own process (issue 14.11);
importing Dédale as a library leaves the program's collector alone. Fresh processes: the
test process's own collector is not touched."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from dedale.cli import GC_THRESHOLDS

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "books" / "first-steps"


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return done.stdout.strip()


def test_importing_dedale_keeps_pythons_thresholds():
    default = _run("import gc; print(gc.get_threshold())")
    imported = _run(
        "import gc, dedale, dedale.cli, dedale.validator.checker; print(gc.get_threshold())"
    )
    assert imported == default


def test_the_command_runs_with_its_thresholds_and_the_same_report():
    code = (
        "import gc, sys\n"
        "from dedale.cli import main\n"
        f"status = main(['validate', '--runs', '0', '--format', 'json', {str(BOOK)!r}])\n"
        "print(repr((gc.get_threshold(), gc.get_freeze_count() > 0, status)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    thresholds, frozen, status = ast.literal_eval(done.stderr.strip().splitlines()[-1])
    assert thresholds == GC_THRESHOLDS
    assert frozen  # the modules' objects were moved out of the collector's way
    assert status == 0
    # the same report as with Python's thresholds (the collector changes no result)
    plain = (
        "import gc\n"
        "from dedale import cli\n"
        "cli.tune_gc = lambda: None\n"
        "cli.gc.freeze = lambda: None\n"
        f"cli.main(['validate', '--runs', '0', '--format', 'json', {str(BOOK)!r}])\n"
    )
    assert _run(plain) == done.stdout.strip()
