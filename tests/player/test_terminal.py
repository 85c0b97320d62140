"""The real ``dedale play`` in a real terminal (tmux): three choices by keys, screen checked."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _screen(session: str) -> str:
    result = subprocess.run(
        ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True, check=True
    )
    return result.stdout


def _wait_for(session: str, text: str, timeout: float = 15.0) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = _screen(session)
        if text in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{text!r} never appeared; the screen was:\n{screen}")


def test_three_choices_in_tmux(repo_root, tmp_path):
    session = f"dedale-{uuid.uuid4().hex[:8]}"
    book = repo_root / "books" / "tutorial"
    command = (
        f"DEDALE_SAVE_DIR={tmp_path} {sys.executable} -m dedale play {book} "
        "--seed 7 --name Ariane --lang fr"
    )
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command],
        check=True,
        env={**os.environ, "TERM": "xterm-256color"},
    )
    try:
        _wait_for(session, "Nouvelle partie")
        keys = ["1", "1"]  # new game, then start the adventure
        expected = ["Commencer l'aventure", "§ 1"]
        for key, text in zip(keys, expected, strict=True):
            subprocess.run(["tmux", "send-keys", "-t", session, key], check=True)
            _wait_for(session, text)
        for heading in ("§ 2", "§ 3", "§ 5"):  # 4 sends the reader on to 5 at once
            subprocess.run(["tmux", "send-keys", "-t", session, "1"], check=True)
            screen = _wait_for(session, heading)
        assert "1. " in screen  # the next choice is offered, numbered
        assert "Feuille" in screen  # French key labels in the footer
        assert (tmp_path / "tutorial" / "autosave.json").is_file()
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)
