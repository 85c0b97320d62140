"""Benchmark of the Textual player (figures in docs/performance.md).

1. Launch: the real ``dedale play`` started in tmux (80x24); time until the title screen's
   menu is on the terminal (capture-pane polled every 10 ms). Target: < 1 s.
2. Key to paragraph: in a headless app (``run_test``) over the real Game and the bundled
   tutorial book, time from the key event ``1`` (``App.simulate_key``, as the driver posts
   it) to the first screen refresh after the next paragraph's heading changed (the pump,
   the new widgets laid out and drawn). Target: median < 50 ms.

    python tools/bench/bench_player.py [--runs 5] [--keys 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "books" / "tutorial"


def launch_times() -> tuple[float, float]:
    """Seconds from starting ``dedale play`` in tmux to (the title screen drawn, its menu
    ready once the book has loaded in the background)."""
    session = f"bench-{uuid.uuid4().hex[:8]}"
    drawn = None
    with tempfile.TemporaryDirectory() as saves:
        command = f"DEDALE_SAVE_DIR={saves} {sys.executable} -m dedale play {BOOK} --lang en"
        start = time.perf_counter()
        subprocess.run(
            ["tmux", "new-session", "-d", "-s", session, "-x", "80", "-y", "24", command],
            check=True,
            env={**os.environ, "TERM": "xterm-256color"},
        )
        screen = ""
        try:
            while time.perf_counter() - start < 20:
                screen = subprocess.run(
                    ["tmux", "capture-pane", "-p", "-t", session], capture_output=True, text=True
                ).stdout
                if drawn is None and "by The Dédale authors" in screen:
                    drawn = time.perf_counter() - start
                if "New game" in screen:
                    return drawn or time.perf_counter() - start, time.perf_counter() - start
                time.sleep(0.01)
            raise RuntimeError(f"the title screen never appeared:\n{screen}")
        finally:
            subprocess.run(["tmux", "kill-session", "-t", session], check=False)


async def key_to_paragraph(keys: int) -> list[float]:
    """Milliseconds from key press to the next paragraph rendered, for ``keys`` choices."""
    from dedale.game import Game
    from dedale.language import load_book
    from dedale.player.app import DedaleApp
    from textual.widgets import Static

    book = load_book(BOOK)
    app = DedaleApp(book, lambda b: Game.new(b, 7, name="Bench", lang="en"), lang="en")
    timings = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")  # new game
        await pilot.pause()
        await pilot.press("1")  # start
        await pilot.pause()
        for _ in range(keys):
            await pilot.pause()
            heading = app.screen.query_one("#heading", Static)
            before = str(heading.render())
            start = time.perf_counter()
            app.simulate_key("1")  # the key event, as the terminal driver posts it
            while str(heading.render()) == before:
                await asyncio.sleep(0.0005)
            rendered = asyncio.get_running_loop().create_future()
            app.call_after_refresh(rendered.set_result, None)  # after the screen is drawn
            await rendered
            timings.append((time.perf_counter() - start) * 1000)
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keys", type=int, default=8)
    parser.add_argument("--skip-launch", action="store_true", help="only the key presses")
    args = parser.parse_args()
    if not args.skip_launch:
        launches = [launch_times() for _ in range(args.runs)]
        drawn = [first for first, _ in launches]
        ready = [menu for _, menu in launches]
        print(
            f"launch to title screen drawn: median {statistics.median(drawn):.3f} s "
            f"(min {min(drawn):.3f}, max {max(drawn):.3f}, {args.runs} runs)"
        )
        print(
            f"launch to menu ready (book loaded): median {statistics.median(ready):.3f} s "
            f"(min {min(ready):.3f}, max {max(ready):.3f})"
        )
    keys = []
    for _ in range(args.runs):
        keys.extend(asyncio.run(key_to_paragraph(args.keys)))
    print(
        f"key press to next paragraph: median {statistics.median(keys):.1f} ms "
        f"(min {min(keys):.1f}, max {max(keys):.1f}, {len(keys)} presses)"
    )


if __name__ == "__main__":
    main()
