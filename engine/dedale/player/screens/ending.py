"""Death and victory screens, with the game's statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from dedale.player.session import GameStatistics
from dedale.player.widgets.keys import localise_bindings

if TYPE_CHECKING:
    from dedale.player.app import DedaleApp


class EndingScreen(Screen[None]):
    """``outcome`` is "death" or "victory" (anything else reads as the end)."""

    CSS_PATH = "ending.tcss"
    BINDINGS = [
        Binding("enter", "title", "Title"),
        Binding("escape", "title", "Title", show=False),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, outcome: str | None, statistics: GameStatistics) -> None:
        super().__init__()
        self.outcome = outcome or "death"
        self.statistics = statistics
        self.add_class("-victory" if self.outcome == "victory" else "-death")

    def on_mount(self) -> None:
        localise_bindings(self, cast("DedaleApp", self.app).texts)

    def compose(self) -> ComposeResult:
        texts = cast("DedaleApp", self.app).texts
        key = "ending.victory" if self.outcome == "victory" else "ending.death"
        table = Table.grid(padding=(0, 2))
        table.add_column()
        table.add_column(justify="right")
        stats = self.statistics
        table.add_row(texts("ending.paragraphs"), str(stats.paragraphs_read))
        table.add_row(texts("ending.fights"), str(stats.fights_won))
        table.add_row(texts("ending.dice"), str(stats.dice_rolled))
        table.add_row(texts("ending.turns"), str(stats.choices_made))
        with Vertical(id="ending-box"):
            yield Static(texts(key), id="ending-title")
            yield Static(table, id="ending-stats")
            yield Static(texts("ending.menu"), id="ending-menu")

    def action_title(self) -> None:
        cast("DedaleApp", self.app).back_to_title()
