"""Benchmark: ``dedale serve`` in headless Chromium (Playwright, the system's browser).

    python tools/bench/bench_web.py [BOOK] [--runs 5]

Starts the server once, then for each run opens the page in a fresh browser context (a new
session) and measures the wall time from the page request to the title screen shown in the
page's terminal, then from the key ``1`` to the creation screen; and the memory (VmRSS) of
the tab's ``dedale play`` process and of the server. Prints the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.web.serving import serving  # noqa: E402
from tests.web.terminal import chromium_path, wait_for_screen  # noqa: E402


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", nargs="?", default=str(ROOT / "tests/books_extra/web/en"))
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    title, creation, game_mb, server_mb = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp, serving(Path(options.book), Path(tmp)) as served:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
            for _ in range(options.runs):
                context = browser.new_context(viewport={"width": 1100, "height": 700})
                page = context.new_page()
                started = time.perf_counter()
                page.goto(served.url)
                wait_for_screen(page, "New game", timeout=60)
                title.append(time.perf_counter() - started)
                page.locator(".xterm-helper-textarea").focus()
                started = time.perf_counter()
                page.keyboard.press("1")
                wait_for_screen(page, "name", timeout=60)
                creation.append(time.perf_counter() - started)
                (game,) = served.children()
                game_mb.append(_rss_mb(game))
                server_mb.append(_rss_mb(served.process.pid))
                context.close()
                time.sleep(0.5)  # the tab's game quits
            browser.close()
    print(f"runs: {options.runs}")
    print(f"page request -> title screen: median {statistics.median(title) * 1000:.0f} ms")
    print(f"key 1 -> creation screen:     median {statistics.median(creation) * 1000:.0f} ms")
    print(f"game process VmRSS:           median {statistics.median(game_mb):.0f} MB")
    print(f"server VmRSS:                 median {statistics.median(server_mb):.0f} MB")


if __name__ == "__main__":
    main()
