"""Help: the keys, and the book's rules summarised in our own words."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Footer, Markdown, Static

from dedale.player.rules_summary import summarise
from dedale.player.screens.modal import OnceModal
from dedale.player.widgets.keys import localise_bindings

if TYPE_CHECKING:
    from dedale.player.app import DedaleApp


class HelpScreen(OnceModal[None]):
    """Escape or ? closes it."""

    CSS_PATH = "help.tcss"
    BINDINGS = [
        Binding("escape", "dismiss", "Back"),
        Binding("question_mark", "dismiss", "Back", show=False),
    ]

    def on_mount(self) -> None:
        localise_bindings(self, cast("DedaleApp", self.app).texts)

    def compose(self) -> ComposeResult:
        app = cast("DedaleApp", self.app)
        texts = app.texts
        keys = texts("help.key_list")
        if app.playtest:
            keys += texts("help.playtest_keys")
        rules = summarise(app.book_view.ruleset, texts) or texts("help.rules_summary")
        with VerticalScroll(id="help-box"):
            yield Static(texts("help.keys"), classes="help-heading")
            yield Static(keys, id="help-keys", markup=False)
            title = app.book_view.ruleset_title(texts.lang)
            heading = texts("help.rules")
            yield Static(f"{heading} — {title}" if title else heading, classes="help-heading")
            yield Markdown(rules, id="help-rules")
        yield Footer()
