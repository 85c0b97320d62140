"""``dedale validate`` and ``dedale odds`` end their process without the interpreter's
teardown (issue 14.11, ``dedale.cli.quick_exit``): the same output, the same status, the
exit handlers run. Fresh processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "books" / "first-steps"
FIXTURE = ROOT / "tests" / "books_extra" / "validator" / "W085-never-won.dd"


def _python(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, check=False, cwd=ROOT
    )


def test_the_exit_handlers_run_and_the_status_is_kept():
    code = (
        "import atexit, sys\n"
        "from dedale.cli import quick_exit\n"
        "atexit.register(lambda: print('handler', end=''))\n"
        "print('out', end='')\n"
        "print('err', end='', file=sys.stderr)\n"
        "quick_exit(3)\n"
        "print('never')\n"
    )
    done = _python("-c", code)
    assert (done.stdout, done.stderr, done.returncode) == ("outhandler", "err", 3)


def test_another_thread_ends_as_usual():
    code = (
        "import threading, time\n"
        "from dedale.cli import quick_exit\n"
        "def late():\n"
        "    time.sleep(0.2)\n"
        "    print('thread done', flush=True)\n"
        "threading.Thread(target=late).start()\n"
        "quick_exit(4)\n"
    )
    done = _python("-c", code)
    assert (done.stdout, done.returncode) == ("thread done\n", 4)


def test_the_command_prints_what_main_returns():
    for book, args in ((BOOK, ["--format", "json"]), (FIXTURE, []), (BOOK, ["--strict"])):
        command = ["validate", "--runs", "0", *args, str(book)]
        whole = _python("-m", "dedale", *command)
        inside = _python("-c", f"from dedale.cli import main; raise SystemExit(main({command!r}))")
        assert whole.stdout and whole.stdout == inside.stdout
        assert (whole.stderr, whole.returncode) == (inside.stderr, inside.returncode)
