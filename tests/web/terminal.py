"""What the browser shows: the page's xterm.js terminal buffer, read through the DevTools
protocol (Playwright's CDP session), and a headless Chromium (the system's, no download)."""

from __future__ import annotations

import shutil
import time
from typing import Any

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
TERMINAL_TIMEOUT = 20.0

_FIND_TERMINAL = """function () {
  // `this` is every object of the page; xterm.js's Terminal is the one with a buffer API.
  const found = this.filter((o) => {
    try {
      return o && typeof o.write === "function" && o.buffer && o.buffer.active
        && typeof o.buffer.active.getLine === "function";
    } catch (e) { return false; }
  });
  if (found.length) window.__dedaleTerminal = found[0];
  return found.length;
}"""

_SCREEN = """() => {
  const terminal = window.__dedaleTerminal;
  if (!terminal) return null;
  const buffer = terminal.buffer.active, rows = [];
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
}"""


def chromium_path() -> str | None:
    """The system Chromium, if there is one."""
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _find_terminal(page: Any) -> bool:
    """Keep a handle on the page's terminal object (``window.__dedaleTerminal``)."""
    session = page.context.new_cdp_session(page)
    try:
        prototype = session.send("Runtime.evaluate", {"expression": "Object.prototype"})
        objects = session.send(
            "Runtime.queryObjects", {"prototypeObjectId": prototype["result"]["objectId"]}
        )
        found = session.send(
            "Runtime.callFunctionOn",
            {
                "objectId": objects["objects"]["objectId"],
                "functionDeclaration": _FIND_TERMINAL,
                "returnByValue": True,
            },
        )
        return bool(found["result"].get("value"))
    finally:
        session.detach()


def screen_text(page: Any) -> str:
    """The terminal's visible rows, as text (empty while there is no terminal yet)."""
    text = page.evaluate(_SCREEN)
    if text is None and _find_terminal(page):
        text = page.evaluate(_SCREEN)
    return text or ""


def wait_for_screen(page: Any, *texts: str, timeout: float = TERMINAL_TIMEOUT) -> str:
    """The screen once it shows every one of ``texts``; AssertionError with the last screen
    past ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = screen_text(page)
        if all(text in screen for text in texts):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{texts!r} never all appeared; the screen was:\n{screen}")
