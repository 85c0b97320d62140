"""Textual's own texts in the player's language: the command palette's entries and help
texts, its search prompts, and the toast Ctrl-C shows ("Do you want to quit?").

Textual writes them in English inside the framework; :class:`dedale.player.app.DedaleApp`
hands them over to these functions, which keep Textual's callbacks and only change the
words (an entry Textual adds in a later version, and that this table does not know, keeps
its English words rather than disappearing).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from textual.app import SystemCommand

from dedale.player.texts import Texts

# Textual's English title (and help) -> the keys of their translations.
_COMMANDS: dict[tuple[str, str], tuple[str, str]] = {
    ("Theme", "Change the current theme"): ("system.theme", "system.theme_help"),
    ("Quit", "Quit the application as soon as possible"): ("system.quit", "system.quit_help"),
    ("Keys", "Hide the keys and widget help panel"): ("system.keys", "system.keys_hide"),
    ("Keys", "Show help for the focused widget and a summary of available keys"): (
        "system.keys",
        "system.keys_show",
    ),
    ("Minimize", "Minimize the widget and restore to normal size"): (
        "system.minimize",
        "system.minimize_help",
    ),
    ("Maximize", "Maximize the focused widget"): ("system.maximize", "system.maximize_help"),
    ("Screenshot", "Save an SVG 'screenshot' of the current screen"): (
        "system.screenshot",
        "system.screenshot_help",
    ),
}


def translated_commands(commands: Iterable[SystemCommand], texts: Texts) -> Iterator[SystemCommand]:
    """Textual's system commands with their title and help in the player's language."""
    for command in commands:
        keys = _COMMANDS.get((command.title, command.help))
        if keys is None:
            yield command
            continue
        title, help_text = keys
        yield command._replace(title=texts(title), help=texts(help_text))


def quit_key(app: Any) -> str | None:
    """The key bound to quitting on the current screen (what Ctrl-C's toast names)."""
    for key, active in app.active_bindings.items():
        if active.binding.action in ("quit", "app.quit"):
            return str(key)
    return None


def quit_toast(texts: Texts, key: str) -> tuple[str, str]:
    """The message and title of the toast Ctrl-C shows (Ctrl-C does not quit)."""
    return texts("system.quit_hint", key=key), texts("system.quit_title")
