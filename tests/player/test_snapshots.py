"""Snapshots (pytest-textual-snapshot) of every screen at 80x24 and 120x40.

Each case plays the scripted book from the title screen with keys; nothing on these screens
depends on time (no blinking cursor is focused, no toast is showing).
"""

from __future__ import annotations

import pytest
from fake_game import fake_app

START = ["1", "enter", "1"]  # new game, keep the default name, start the adventure
CASES = {
    "title": ([], {}),
    "creation": (["1"], {"classes": True}),
    "reading": (START, {}),
    "sheet": ([*START, "s"], {}),
    "fight_offer": ([*START, "1"], {}),  # the paragraph is read before the fight
    "fight": ([*START, "1", "1"], {}),
    "test": ([*START, "2"], {}),
    "help": ([*START, "question_mark"], {}),
    "death": ([*START, "2", "enter"], {}),
    "victory": ([*START, "1", "1", "y", "enter", "1", "enter"], {}),
}
SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", list(CASES))
def test_screen(snap_compare, screen, size):
    keys, options = CASES[screen]

    async def play(pilot):
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await pilot.wait_for_scheduled_animations()  # a loaded machine may lag a frame
        await pilot.pause()

    app = fake_app(lang="fr" if screen in {"fight", "fight_offer", "death"} else None, **options)
    assert snap_compare(app, run_before=play, terminal_size=size)
