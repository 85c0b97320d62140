"""The Textual application: owns the session and routes events and prompts to screens.

Flow: title -> creation (until the first paragraph) -> reading (fights on their own screen,
prompts in modals) -> ending. ``pump()`` pulls from the game until a prompt or a pause.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette

from dedale import events as ev
from dedale.errors import DedaleError
from dedale.player import nobreak
from dedale.player.book_view import BookView
from dedale.player.choice_label import choice_label
from dedale.player.gender import keep_gender, saved_gender
from dedale.player.narration import dress
from dedale.player.options import show_targets
from dedale.player.session import Session
from dedale.player.slots import AUTOSAVE, SaveSlots, load_path
from dedale.player.system_texts import quit_key, quit_toast, translated_commands
from dedale.player.texts import Texts
from dedale.player.watch import BookWatcher

GameFactory = Callable[[Any], Any]  # book -> a new game


class GameView(Protocol):
    """A screen that shows the game: creation, reading, fight."""

    def show(self, event: ev.Event) -> bool:
        """Show one event; False pauses the pump until the reader continues."""

    def ask(self, prompt: ev.Prompt) -> None:
        """Ask the reader; the screen calls ``app.answer(value)``."""


class DedaleApp(App[int]):
    """``dedale play``: a book and its Adventure Sheet in the terminal."""

    CSS_PATH = "app.tcss"
    TITLE = "Dédale"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = [
        Binding("question_mark", "help", "?", show=False),
        Binding("ctrl+q", "quit", "Quit", show=False),
    ]

    def __init__(
        self,
        book: Any,
        new_game: GameFactory,
        *,
        lang: str | None = None,
        slots: SaveSlots | None = None,
        playtest: bool = False,
        watch_root: Path | None = None,
        reload_book: Callable[[], Any] | None = None,
        show_odds: bool = True,
        initial_save: Path | None = None,
        load_book: Callable[[], Any] | None = None,
        turn_to: bool | None = None,
    ) -> None:
        super().__init__()
        nobreak.install()  # French typography: never a line break at a no-break space
        self.book = book
        self.book_view = BookView(book)
        self.new_game = new_game
        self.texts = Texts(lang or self.book_view.language)
        dress(self.texts, book)
        self.slots = slots
        self.playtest = playtest
        self.show_odds = show_odds
        self.turn_to = turn_to  # None: on for a French book (player.options.show_targets)
        self.reload_book = reload_book
        self.watcher = BookWatcher(watch_root) if watch_root and reload_book else None
        self.session: Session | None = None
        self.load_book = load_book  # given: ``book`` is a preview until the worker loads it
        self.book_ready = load_book is None
        self.startup_error: DedaleError | None = None
        self.initial_save = initial_save
        self.view: GameView | None = None
        self._held: ev.Event | None = None
        self._fight_begun = False  # the reader pressed "Fight" under the paragraph
        self.load_error: str | None = None
        self.reloading = False  # a --watch reload is running in a worker
        self._reload_again = False
        self.reload_seconds: float | None = None  # None: player.reload.RELOAD_SECONDS
        self.title = self.book_view.title
        self.gender_flag: str | None = None  # ``--gender``: over the book's and the saved one

    # ------------------------------------------------------------------ Textual's own texts
    def get_system_commands(self, screen: Any) -> Iterable[SystemCommand]:
        """The command palette's entries, in the player's language."""
        return translated_commands(super().get_system_commands(screen), self.texts)

    def action_help_quit(self) -> None:
        """Ctrl-C does not quit: say which key does, in the player's language."""
        key = quit_key(self)
        if key is not None:
            text, title = quit_toast(self.texts, key)
            self.notify(text, title=title)

    def action_command_palette(self) -> None:
        """The command palette, its search prompt in the player's language."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            placeholder = self.texts("system.search_commands")
            self.push_screen(CommandPalette(id="--command-palette", placeholder=placeholder))

    def search_themes(self) -> None:
        """The theme list of the palette, its search prompt in the player's language."""
        from textual.theme import ThemeProvider

        placeholder = self.texts("system.search_themes")
        self.push_screen(CommandPalette(providers=[ThemeProvider], placeholder=placeholder))

    # ------------------------------------------------------------------ names
    def stat_name(self, stat_id: str) -> str:
        """The ruleset's name for a stat in the interface language."""
        return self.book_view.stat_name(stat_id, self.texts.lang)

    def outcome_word(self, test_id: str, outcome: str) -> str | None:
        """A test's own word for an outcome (Luck: "Lucky"), from the ruleset."""
        return self.book_view.outcome_word(test_id, outcome, self.texts.lang)

    def blank_choice(self, target: int | None) -> str:
        """The label of a choice written with no text: "Turn to 12" (docs/language.md §4)."""
        if target is None:
            return self.texts("app.go_on")
        return self.texts("app.turn_to", number=target)

    @property
    def show_targets(self) -> bool:
        """Whether choices say where they lead, as a printed book does ("Turn to 7")."""
        return show_targets(self.turn_to, self.book_view.language)

    def choice_label(self, option: ev.ChoiceOption) -> str:
        """A choice as the reader sees it (``player.choice_label``)."""
        return choice_label(option, self.texts, self.show_targets)

    # ------------------------------------------------------------------ lifecycle
    def on_mount(self) -> None:
        from dedale.player.screens.title import TitleScreen

        self.push_screen(TitleScreen())
        if self.load_book is not None:
            self.run_worker(
                self._load_in_background, thread=True, group="load", exit_on_error=False
            )
        elif self.initial_save is not None:
            self.load_file(self.initial_save)
        if self.watcher is not None:
            self.set_interval(0.5, self.check_book_changed)

    def _load_in_background(self) -> None:
        assert self.load_book is not None
        try:
            book = self.load_book()
            import dedale.game  # noqa: F401 - warm the interpreter's imports here too
        except DedaleError as error:
            self.call_from_thread(self._startup_failed, error)
            return
        self.call_from_thread(self._book_loaded, book)

    def _startup_failed(self, error: DedaleError) -> None:
        self.startup_error = error
        self.exit(1)

    def _book_loaded(self, book: Any) -> None:
        from dedale.player.screens.title import TitleScreen

        self.book = book
        self.book_view = BookView(book)
        dress(self.texts, book)
        self.book_ready = True
        self.title = self.book_view.title
        if isinstance(self.screen, TitleScreen):
            self.screen.book_ready()
        if self.initial_save is not None:
            self.load_file(self.initial_save)

    def start_game(self) -> None:
        """Title -> new game: creation screen, then pull the first events."""
        from dedale.player.screens.creation import CreationScreen

        self._held = None
        self._fight_begun = False
        self.session = Session(self.new_game(self.book), self.book_view.sheet_layout())
        self.texts.chosen_gender = self.gender_flag
        keep_gender(self.session.game, self.gender_flag)
        screen = CreationScreen()
        self.view = screen
        self.switch_screen(screen)  # its on_mount calls view_ready()

    def resume_game(self, game: Any) -> None:
        """Continue a loaded game on the reading screen."""
        from dedale.player.screens.reading import ReadingScreen

        self._held = None
        self._fight_begun = False
        self.session = Session(game, self.book_view.sheet_layout())
        self.texts.chosen_gender = self.gender_flag or saved_gender(game)
        screen = ReadingScreen()
        self.view = screen
        if isinstance(self.screen, ReadingScreen):
            self.switch_screen(screen)
        else:
            while len(self.screen_stack) > 2:
                self.pop_screen()
            self.switch_screen(screen)

    def swap_game(self, game: Any) -> None:
        """Playtest: go on with another game object (a jump), keeping the statistics."""
        old = self.session
        self.resume_game(game)
        if old is not None and self.session is not None:
            self.session.statistics = old.statistics

    def enter_reading(self) -> None:
        """Creation is over: show the first paragraph."""
        from dedale.player.screens.reading import ReadingScreen

        screen = ReadingScreen()
        self.view = screen
        self.switch_screen(screen)

    def view_ready(self, screen: object) -> None:
        """A game screen is mounted: continue the game on it."""
        if screen is self.view:
            self.pump()

    @property
    def fight_waiting(self) -> bool:
        """A fight is about to start: its paragraph is on screen, "Fight" is offered."""
        return isinstance(self._held, ev.FightStarted) and not self._fight_begun

    def forget_waiting_fight(self) -> None:
        """The game was moved (undo, jump...): a fight that was waiting for "Fight" is gone."""
        if isinstance(self._held, ev.FightStarted):
            self._held = None
        self._fight_begun = False

    def begin_fight(self) -> None:
        """The reader read the paragraph and pressed "Fight": open the fight screen."""
        if isinstance(self._held, ev.FightStarted):
            self._fight_begun = True
            self.pump()

    def end_fight(self) -> None:
        """The reader closed the fight screen: back to the paragraph."""
        self.view = self.screen_stack[-2]  # type: ignore[assignment]
        self.pop_screen()
        # go on from the screen beneath: a modal asked from the fight screen's handler (a
        # pick-up, an optional test) would report its answer to that closed screen
        self.view.call_later(self.pump)  # type: ignore[union-attr]

    def show_ending(self) -> None:
        from dedale.player.screens.ending import EndingScreen

        assert self.session is not None
        self.switch_screen(EndingScreen(self.session.outcome, self.session.statistics))

    def action_back_to_title(self) -> None:
        self.back_to_title()

    def back_to_title(self) -> None:
        from dedale.player.screens.title import TitleScreen

        self.session = None
        self.view = None
        self._held = None
        self._fight_begun = False
        self.switch_screen(TitleScreen())

    # ------------------------------------------------------------------ the pump
    def pump(self) -> None:
        """Pull events until a prompt, the end of the game, or a pause asked by a screen."""
        from dedale.player.screens.creation import CreationScreen
        from dedale.player.screens.fight import FightScreen

        session = self.session
        if session is None or self.view is None:
            return
        while True:
            if self._held is not None:
                item: ev.Event | ev.Prompt | None = self._held
                self._held = None
            else:
                try:
                    item = session.next()
                except DedaleError as error:
                    self.show_game_error(error)
                    return
            if item is None:
                self.view.game_over()  # type: ignore[attr-defined]
                return
            if isinstance(item, ev.Prompt):
                if isinstance(item, ev.ChoosePrompt):
                    self.autosave()
                self.view.ask(item)
                return
            if isinstance(item, ev.ParagraphEntered) and isinstance(self.view, CreationScreen):
                self._held = item
                self.view.ready()
                return
            if isinstance(item, ev.FightStarted) and not isinstance(self.view, FightScreen):
                self._held = item
                offer = getattr(self.view, "offer_fight", None)
                if callable(offer) and not self._fight_begun:
                    offer()  # the paragraph is read first; its button calls begin_fight()
                    return
                self._fight_begun = False
                screen = FightScreen()
                self.view = screen
                self.push_screen(screen)  # its on_mount calls view_ready()
                return
            if not self.view.show(item):
                return

    def show_game_error(self, error: DedaleError) -> None:
        """The game cannot go on: say where and why; the autosave stays as it was."""
        from dedale.player.screens.game_error import GameErrorScreen

        self.session = None
        self.view = None
        self._held = None
        self._fight_begun = False
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(GameErrorScreen(error))

    def answer(self, value: object) -> None:
        """Send the reader's answer and continue."""
        if self.session is None or self.session.prompt is None:
            return
        prompt = self.session.prompt
        if isinstance(prompt, ev.ChoosePrompt) and isinstance(value, int):
            # "Fight the TROLL" chosen before the fight (issue 13.5): it begins at once,
            # the paragraph was read and the reader has just said so
            chosen = next((o for o in prompt.options if o.index == value), None)
            self._fight_begun = chosen is not None and chosen.go_on
        self.session.answer(value)
        self.pump()

    def refresh_sheet(self) -> None:
        """Redraw the sheet of the current screen (after eat, undo, load)."""
        refresh = getattr(self.view, "refresh_sheet", None)
        if callable(refresh):
            refresh()

    # ------------------------------------------------------------------ saves
    def autosave(self) -> None:
        if self.slots is None or self.session is None:
            return
        try:
            self.slots.save(AUTOSAVE, self.session.game)
        except (DedaleError, OSError) as error:
            self.notify(self.texts("app.save_error", error=error), severity="warning")

    def save_to(self, slot: str) -> None:
        if self.slots is None or self.session is None:
            return
        try:
            self.slots.save(slot, self.session.game)
        except (DedaleError, OSError) as error:
            self.notify(self.texts("app.save_error", error=error), severity="error")
        else:
            self.notify(self.texts("app.saved", slot=slot))

    def load_from(self, slot: str) -> None:
        if self.slots is not None:
            self.load_file(self.slots.path(slot))

    def load_file(self, path: Path) -> None:
        """Resume the game saved in ``path``; a bad save is reported, nothing changes."""
        try:
            loaded = load_path(path, self.book, self.slots._load_fn if self.slots else None)
        except (DedaleError, OSError) as error:
            message = error.render() if isinstance(error, DedaleError) else str(error)
            self.notify(self.texts("app.load_error", error=message), severity="error")
            return
        if loaded.divergence:
            self.notify(self.texts("app.diverged", reason=loaded.divergence), timeout=10)
        self.resume_game(loaded.game)

    def action_save(self) -> None:
        from dedale.player.screens.prompts import PickScreen

        if self.slots is None or self.session is None:
            return
        options = [(self._slot_label(s), True, s) for s in self.slots.slots()]
        self.push_screen(PickScreen(self.texts("saves.title_save"), options), self._saved)

    def _saved(self, slot: object) -> None:
        if slot is not None:
            self.save_to(str(slot))

    def action_load(self) -> None:
        from dedale.player.screens.prompts import PickScreen

        if self.slots is None:
            return
        # only the saves there are, numbered as shown: key 2 loads the second one (16.9)
        slots = [s for s in (AUTOSAVE, *self.slots.slots()) if self.slots.exists(s)]
        if not slots:
            self.notify(self.texts("saves.none"), severity="warning")
            return
        options = [(self._slot_label(s), True, s) for s in slots]
        self.push_screen(PickScreen(self.texts("saves.title_load"), options), self._loaded)

    def _loaded(self, slot: object) -> None:
        if slot is not None:
            self.load_from(str(slot))

    def _slot_label(self, slot: str) -> str:
        """The slot's name, and what it holds: paragraph, hero, date, description."""
        from dedale.player.slot_summary import read_summary, slot_label

        assert self.slots is not None
        name = (
            self.texts("saves.autosave")
            if slot == AUTOSAVE
            else self.texts("saves.slot", slot=slot)
        )
        return slot_label(name, read_summary(self.slots.path(slot), self.book), self.texts)

    # ------------------------------------------------------------------ help
    def action_help(self) -> None:
        from dedale.player.screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    # ------------------------------------------------------------------ --watch
    def check_book_changed(self) -> None:
        """Timer: when the book's files changed, reload it in a worker (see player.reload)."""
        if self.watcher is None or self.reload_book is None or not self.watcher.changed():
            return
        self.start_reload()

    def start_reload(self) -> None:
        """Reload the book and carry the game over, off the UI thread and in bounded time."""
        from dedale.player.reload import ReloadJob

        if self.reload_book is None:
            return
        if self.reloading:
            self._reload_again = True  # an edit during a reload: one more when it ends
            return
        save_fn = self.slots._save_fn if self.slots else None  # noqa: SLF001
        load_fn = self.slots._load_fn if self.slots else None  # noqa: SLF001
        game = self.session.game if self.session is not None else None
        try:
            job = ReloadJob(self.reload_book, game, save_fn, load_fn)
        except DedaleError as error:
            self.notify(error.render(), severity="error", timeout=30)
            return
        self.reloading = True
        self.run_worker(
            lambda: self._reload_in_background(job),
            thread=True,
            group="reload",
            exit_on_error=False,
        )

    def _reload_in_background(self, job: Any) -> None:
        from dedale.player.reload import RELOAD_SECONDS, ReloadTimeout

        try:
            result = job.run(self.reload_seconds or RELOAD_SECONDS)
        except ReloadTimeout:
            self.call_from_thread(self._reload_timed_out)
        except DedaleError as error:
            self.call_from_thread(self._reload_failed, error)
        else:
            self.call_from_thread(self._reloaded, result)

    def _reload_done(self) -> bool:
        """The reload is over; True if another was asked meanwhile (and is now started)."""
        self.reloading = False
        if self._reload_again:
            self._reload_again = False
            self.start_reload()
            return True
        return False

    def _reload_timed_out(self) -> None:
        from dedale.player.reload import RELOAD_SECONDS

        seconds = self.reload_seconds or RELOAD_SECONDS
        self.load_error = self.texts("app.reload_timeout", seconds=f"{seconds:g}")
        self.notify(
            self.load_error, title=self.texts("app.reload_error"), severity="error", timeout=30
        )
        self._reload_done()

    def _reload_failed(self, error: DedaleError) -> None:
        self.load_error = error.render()
        self.notify(
            self.load_error, title=self.texts("app.reload_error"), severity="error", timeout=30
        )
        self._reload_done()

    def _reloaded(self, result: Any) -> None:
        if self._reload_done():
            return  # the book changed again: the newer reload decides
        game = self.session.game if self.session is not None else None
        moved = game is not None and len(getattr(game, "decisions", ()) or ()) != result.decisions
        if moved or (game is None) != (result.loaded is None):
            self.start_reload()  # the reader went on meanwhile: carry the newer game over
            return
        if self.load_error is not None:
            self.clear_notifications()  # the error toast goes with the error (issue 16.10)
        self.load_error = None
        self.book = result.book
        self.book_view = BookView(result.book)
        dress(self.texts, self.book)
        if result.loaded is not None:
            if result.loaded.divergence:
                reason = result.loaded.divergence
                self.notify(self.texts("app.diverged", reason=reason), timeout=10)
            self.resume_game(result.loaded.game)
        self.notify(self.texts("app.reloaded"))


def run_player(args: argparse.Namespace) -> int:
    """Run the app for ``dedale play`` arguments; the exit code follows ``--plain``'s."""
    from dedale.player.launch import build_app

    app = build_app(args)
    result = app.run()
    args.game_played = app.session.game if app.session is not None else None  # --record
    if app.startup_error is not None:
        raise app.startup_error  # the CLI prints it with its position; exit code 1
    if app.return_code:  # Textual met an unhandled exception (it printed the traceback)
        from dedale.cli import EXIT_CRASH
        from dedale.crash import report_crash

        error = getattr(app, "_exception", None) or RuntimeError("the player stopped")
        print(report_crash(error, "dedale play"), file=sys.stderr)
        return EXIT_CRASH
    if app.session is not None and app.session.outcome == "death":
        return 3
    return int(result or 0)
