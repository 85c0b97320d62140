"""The game stopped on an error of the book (a GameError): where, why, and the way out.

Shown instead of a frozen page when the interpreter refuses to go on (a loop of forced
jumps, a rule it cannot run). The message is the located error as ``dedale validate``
prints it; the autosave, written at the last choice, is untouched, so "Continue" on the
title screen resumes from there once the book is fixed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from dedale.player.widgets.keys import localise_bindings

if TYPE_CHECKING:
    from dedale.errors import DedaleError
    from dedale.player.app import DedaleApp


class GameErrorScreen(Screen[None]):
    """The error, located; Enter goes back to the title screen, q quits."""

    CSS_PATH = "game_error.tcss"
    BINDINGS = [
        Binding("enter", "title", "Title"),
        Binding("escape", "title", "Title", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, error: DedaleError) -> None:
        super().__init__()
        self.error = error

    def on_mount(self) -> None:
        localise_bindings(self, cast("DedaleApp", self.app).texts)

    def compose(self) -> ComposeResult:
        texts = cast("DedaleApp", self.app).texts
        with Vertical(id="game-error-box"):
            yield Static(texts("game_error.title"), id="game-error-title")
            yield Static(self.error.render(), id="game-error-text", markup=False)
            yield Static(texts("game_error.autosave"), id="game-error-menu")
        yield Footer()

    def action_title(self) -> None:
        cast("DedaleApp", self.app).back_to_title()
