"""Title screen: the book's title and author; new game, continue, load, quit."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import Static

from dedale.player.slots import AUTOSAVE
from dedale.player.widgets.choices import ChoiceList
from dedale.player.widgets.keys import localise_bindings

if TYPE_CHECKING:
    from dedale.player.app import DedaleApp


class TitleScreen(Screen[None]):
    """The first screen."""

    CSS_PATH = "title.tcss"
    BINDINGS = [("q", "app.quit", "Quit"), ("escape", "app.quit", "Quit")]

    @property
    def dedale(self) -> DedaleApp:
        return cast("DedaleApp", self.app)

    def compose(self) -> ComposeResult:
        app = self.dedale
        texts = app.texts
        with Vertical(id="title-box"):
            yield Static(app.book_view.title, id="book-title")
            if app.book_view.author:
                yield Static(texts("app.by", author=app.book_view.author), id="book-author")
            with Center():
                yield ChoiceList(id="menu")

    def on_mount(self) -> None:
        localise_bindings(self, cast("DedaleApp", self.app).texts)
        self.book_ready()

    def book_ready(self) -> None:
        """Show the menu (again) once the book is loaded."""
        app = self.dedale
        self.query_one("#book-title", Static).update(app.book_view.title)
        if not app.book_ready:
            self.query_one(ChoiceList).set_options([(app.texts("app.loading"), False, None)])
            return
        texts = app.texts
        can_continue = app.slots is not None and app.slots.exists(AUTOSAVE)
        can_load = app.slots is not None
        self.query_one(ChoiceList).set_options(
            [
                (texts("app.new_game"), True, "new"),
                (texts("app.continue_game"), can_continue, "continue"),
                (texts("app.load"), can_load, "load"),
                (texts("app.quit"), True, "quit"),
            ]
        )
        self.query_one(ChoiceList).focus()

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", "")
        if key.isdigit() and key != "0":
            self.query_one(ChoiceList).choose_number(int(key))

    def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        app = self.dedale
        match message.value:
            case "new":
                app.start_game()
            case "continue":
                app.load_from(AUTOSAVE)
            case "load":
                app.action_load()
            case "quit":
                app.exit(0)
