"""``dedale serve`` for real: the server in a child process, its page in headless Chromium
(the system's package, driven by Playwright), keys typed in the page, and the screen read
from the page's terminal (xterm.js's buffer, through the DevTools protocol): the title screen,
then paragraph 1. Each browser (context) gets its own save folder, kept across a reload.

Marked ``browser`` (a few seconds each): ``pytest -m "not browser"`` leaves them out.
Set DEDALE_WEB_SCREENSHOT=PATH to keep the picture of paragraph 1 (docs/images/web-player.png).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.web.serving import serving
from tests.web.terminal import chromium_path, wait_for_screen

playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
CHROMIUM = chromium_path()
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt install chromium)"),
]
BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "web"
VIEWPORT = {"width": 1100, "height": 700}


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as driver:
        launched = None
        for attempt in range(2):  # a loaded machine may miss the launch's deadline once
            try:
                launched = driver.chromium.launch(
                    executable_path=CHROMIUM,
                    args=["--no-sandbox", "--disable-dev-shm-usage"],
                    timeout=60_000,
                )
                break
            except playwright.Error:
                if attempt:
                    raise
        assert launched is not None
        try:
            yield launched
        finally:
            launched.close()


def _open(browser, url: str):
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(url)
    return context, page


def _keys_to(page) -> None:
    """Give the terminal the keyboard (as a click in it would)."""
    page.locator(".xterm-helper-textarea").focus()


def _sessions(tmp_path: Path) -> list[Path]:
    root = tmp_path / "data" / "sessions"
    return sorted(root.iterdir()) if root.is_dir() else []


def test_the_title_screen_then_paragraph_1_in_the_browser(browser, tmp_path):
    with serving(BOOKS / "fr", tmp_path) as served:
        context, page = _open(browser, served.url)
        try:
            assert page.title() == "La Tour des Brumes"
            assert page.get_attribute("html", "lang") == "fr"
            # the menu's lines reach the terminal one by one: wait for its last one too
            title = wait_for_screen(page, "La Tour des Brumes", "Nouvelle partie", "Quitter")
            assert "Quitter" in title
            _keys_to(page)
            page.keyboard.press("1")  # new game: the stats are rolled, the name is asked
            wait_for_screen(page, "homme ou une femme")
            page.keyboard.type("Ariane")
            page.keyboard.press("Tab")  # to the gender: one Enter chooses it and goes on
            page.keyboard.press("ArrowDown")
            page.keyboard.press("Enter")
            wait_for_screen(page, "Commencer l'aventure")
            page.keyboard.press("Enter")
            screen = wait_for_screen(page, "§ 1", "Le brouillard monte", "Entrer dans la tour")
            assert "Nouvelle partie" not in screen
            picture = tmp_path / "paragraph-1.png"
            page.screenshot(path=str(picture))
            assert picture.stat().st_size > 10_000  # a real picture, not a blank page
            if os.environ.get("DEDALE_WEB_SCREENSHOT"):
                shutil.copy(picture, os.environ["DEDALE_WEB_SCREENSHOT"])
            assert len(served.children()) == 1  # the tab's own `dedale play`
        finally:
            context.close()
        (folder,) = _sessions(tmp_path)
        assert (folder / "fr" / "autosave.json").is_file()
    log = served.output()  # the server speaks the book's language too
    assert "«\u00a0La Tour des Brumes\u00a0» est servi à l'adresse http://127.0.0.1:" in log
    assert log.rstrip().endswith("Serveur arrêté.")


def test_each_browser_keeps_its_own_saves(browser, tmp_path):
    with serving(BOOKS / "en", tmp_path) as served:
        first, page = _open(browser, served.url)
        try:
            assert page.title() == "The Misty Tower"
            wait_for_screen(page, "The Misty Tower", "New game")
            _keys_to(page)
            page.keyboard.press("1")
            wait_for_screen(page, "name")
            page.keyboard.press("Enter")  # the default name
            wait_for_screen(page, "Start the adventure")
            page.keyboard.press("Enter")
            wait_for_screen(page, "Fog rises from the moor")
            page.reload()  # the same browser: its save is there to resume
            screen = wait_for_screen(page, "New game", "Continue")
            _keys_to(page)
            (folder,) = _sessions(tmp_path)
            assert (folder / "en" / "autosave.json").is_file(), screen
        finally:
            first.close()
        second, other = _open(browser, served.url)  # another browser: a folder of its own
        wait_for_screen(other, "New game")
        assert len(_sessions(tmp_path)) == 2
        mine = [f for f in _sessions(tmp_path) if f != folder]
        assert not (mine[0] / "en" / "autosave.json").exists()
    try:  # Ctrl-C with a tab open: its game stopped (serving checks it), the tab told
        ended = other.locator(".closed-dialog .message")
        ended.wait_for(state="visible", timeout=15_000)
        assert ended.inner_text() == "The game is over in this tab."
    finally:
        second.close()
