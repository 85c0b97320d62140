"""The Adventure Sheet on its own screen (narrow terminals: one key away)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer

from dedale.player.screens.modal import OnceModal
from dedale.player.widgets.adventure_sheet import AdventureSheet
from dedale.player.widgets.keys import localise_bindings

if TYPE_CHECKING:
    from dedale.player.app import DedaleApp


class SheetScreen(OnceModal[None]):
    """Full sheet; s or escape closes it."""

    CSS_PATH = "sheet.tcss"
    BINDINGS = [
        Binding("escape", "dismiss", "Back"),
        Binding("s", "dismiss", "Back", show=False),
        Binding("d", "drop", "Drop"),
    ]

    def action_drop(self) -> None:
        """Close the sheet and drop an item from the reading screen below it."""
        below = self.app.screen_stack[-2]
        self.dismiss(None)
        drop = getattr(below, "action_drop", None)
        if drop is not None:
            drop()

    def compose(self) -> ComposeResult:
        app = cast("DedaleApp", self.app)
        with VerticalScroll(id="sheet-box"):
            yield AdventureSheet(app.texts, app.stat_name, id="full-sheet")
        yield Footer()

    def on_mount(self) -> None:
        localise_bindings(self, cast("DedaleApp", self.app).texts)
        app = cast("DedaleApp", self.app)
        if app.session is not None:
            self.query_one(AdventureSheet).show(app.session.sheet)
