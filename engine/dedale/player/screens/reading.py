"""Reading screen: paragraph heading, Markdown text, numbered choices, Adventure Sheet."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.events import Key
from textual.screen import Screen
from textual.widgets import Footer, Markdown, Static

from dedale import events as ev
from dedale.errors import DedaleError
from dedale.player import playtest
from dedale.player.narration import describe, dice_faces, outcome_text, prose
from dedale.player.screens.prompts import AskScreen, PickScreen, ask_in_modal
from dedale.player.sheet_content import meal_at_full
from dedale.player.widgets.adventure_sheet import AdventureSheet
from dedale.player.widgets.choices import ChoiceList
from dedale.player.widgets.keys import localise_bindings
from dedale.span import Span
from dedale.typed import name_and_number, whole_number, whole_numbers

if TYPE_CHECKING:
    from dedale.player.app import DedaleApp


FIGHT = "__fight__"  # the value of the "Fight" button under a paragraph that starts a fight


class ReadingScreen(Screen[None]):
    """One paragraph at a time; prompts other than choices open modals."""

    CSS_PATH = "reading.tcss"
    BINDINGS = [
        Binding("s", "sheet", "Sheet"),
        Binding("e", "eat", "Eat"),
        Binding("d", "drop", "Drop", show=False),
        Binding("ctrl+s", "app.save", "Save"),
        Binding("ctrl+l", "app.load", "Load"),
        Binding("question_mark", "app.help", "Help"),
        Binding("q", "app.quit", "Quit"),
        Binding("pageup", "scroll_page(-1)", "Page up", show=False),
        Binding("pagedown", "scroll_page(1)", "Page down", show=False),
        Binding("u", "undo", "Undo", show=False),
        Binding("j", "jump", "Jump", show=False),
        Binding("t", "edit_stat", "Edit", show=False),
        Binding("g", "god_mode", "God", show=False),
        Binding("f", "force_dice", "Force", show=False),
        Binding("w", "where", "Source", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._page_done = True  # a choice was made: the next paragraph starts a new page
        #: what a choice's payment or effects narrate before its paragraph (issue 16.8),
        #: shown on the new page under its heading rather than on the page it clears
        self._carried: list[str] = []
        self._last_dice: ev.DiceRolled | None = None
        self._shown_choices: tuple[ev.ChoiceOption, ...] | None = None  # the list on screen

    @property
    def dedale(self) -> DedaleApp:
        return cast("DedaleApp", self.app)

    def compose(self) -> ComposeResult:
        app = self.dedale
        yield Static("", id="heading")
        with Horizontal(id="reading-body"):
            with Vertical(id="reading-main"):
                yield VerticalScroll(id="page")
                yield ChoiceList(id="choices")
            yield AdventureSheet(app.texts, app.stat_name, id="side-sheet")
        yield Footer()

    def on_mount(self) -> None:
        localise_bindings(self, cast("DedaleApp", self.app).texts)
        self.query_one(ChoiceList).display = False
        self.refresh_sheet()
        self.dedale.view_ready(self)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in {"undo", "jump", "edit_stat", "god_mode", "force_dice", "where"}:
            return self.dedale.playtest
        if action == "eat":  # no Eat key in the footer of a ruleset without meals
            ruleset = self.dedale.book_view.ruleset
            return ruleset is None or ruleset.meals is not None
        return True

    # ------------------------------------------------------------------ drawing
    def refresh_sheet(self) -> None:
        session = self.dedale.session
        if session is not None:
            self.query_one(AdventureSheet).show(session.sheet)

    def _heading(
        self, number: int | None, label: str | None = None, span: Span | None = None
    ) -> None:
        app = self.dedale
        text = self._paragraph_title(number, label, span)
        if app.playtest:
            text = f"[reverse] {app.texts('playtest.banner')} [/reverse] {text}"
        self.query_one("#heading", Static).update(text)

    def _paragraph_title(
        self, number: int | None, label: str | None = None, span: Span | None = None
    ) -> str:
        """ "§ 12", with its label and source in playtest mode."""
        app = self.dedale
        text = app.texts("app.paragraph", number=number) if number is not None else ""
        if app.playtest:
            if label:
                text += f"  ({label})"
            if span is not None:
                text += f"  [dim]{Path(span.file).name}:{span.line}[/dim]"
        return text

    def _add(self, widget: Static | Markdown) -> None:
        self.query_one("#page", VerticalScroll).mount(widget)

    def clear_page(self) -> None:
        self.query_one("#page", VerticalScroll).remove_children()
        self._page_done = False

    # ------------------------------------------------------------------ GameView
    def show(self, event: ev.Event) -> bool:
        app = self.dedale
        if self._last_dice is not None and not isinstance(event, ev.TestResolved):
            self._flush_dice()
        match event:
            case ev.ParagraphEntered(number=number, label=label, span=span):
                # Each paragraph keeps its own number above its own text (issue 16.2): the
                # page's first one in the heading, the ones stacked under it in the page.
                if self._page_done:
                    self.clear_page()
                    self._heading(number, label, span)
                    self._show_carried()
                else:
                    self._add(Static(self._paragraph_title(number, label, span), classes="sub"))
            case ev.TextShown(text=text):
                self._add(Markdown(prose(text, app.book_view.language), classes="prose"))
            case ev.DiceRolled():
                self._last_dice = event  # shown in the test's card if a test follows
            case ev.TestResolved():
                self._add(self._test_card(event))
            case _:
                meal_stat = app.session.sheet.layout.meal_stat if app.session else None
                line = describe(
                    event,
                    app.texts,
                    app.stat_name,
                    meal_stat=meal_stat,
                    outcome_word=app.outcome_word,
                )
                if line and self._page_done:
                    self._carried.append(line)
                elif line:
                    self._add(Static(line, classes="note"))
        if isinstance(event, ev.StatChanged | ev.ItemGained | ev.ItemLost | ev.MealEaten):
            self.refresh_sheet()
        elif isinstance(event, ev.CodewordChanged | ev.WorldEntered):
            self.refresh_sheet()
        return True

    def _show_carried(self) -> None:
        """Show the lines a choice narrated before the page they belong to."""
        carried, self._carried = self._carried, []
        for line in carried:
            self._add(Static(line, classes="note"))

    def _flush_dice(self) -> None:
        dice, self._last_dice = self._last_dice, None
        if dice is not None:
            line = describe(dice, self.dedale.texts, self.dedale.stat_name) or ""
            self._add(Static(line, classes="note"))

    def _test_card(self, event: ev.TestResolved) -> Static:
        app = self.dedale
        dice = self._last_dice
        faces = f"{dice_faces(dice.faces)} = " if dice else ""
        result = outcome_text(app.texts, event.outcome, app.outcome_word(event.name, event.outcome))
        colour = "green" if "success" in event.outcome else "red"
        roll = app.texts("test.card", dice=faces, roll=event.roll, target=event.target)
        line = f"[b]{app.stat_name(event.name)}[/b]  {roll}  [b {colour}]{result}[/]"
        if event.margin:
            line += f"  ({event.margin:+d})"
        card = Static(line, classes="test-card")
        self._last_dice = None
        return card

    def ask(self, prompt: ev.Prompt) -> None:
        self._flush_dice()
        self._show_carried()
        self.refresh_sheet()
        if isinstance(prompt, ev.ChoosePrompt):
            choices = self.query_one(ChoiceList)
            shown, self._shown_choices = self._shown_choices, prompt.options
            if shown == prompt.options:
                choices.display = True  # asked again (after a meal): the same list, untouched
                choices.focus()
                return
            if shown is not None:  # the list changed under the reader's eyes: say so
                self._add(Static(self.dedale.texts("app.choices_changed"), classes="note"))
            choices.show_choices(prompt.options, label=self.dedale.choice_label)
            choices.display = True
            choices.focus()
            self.query_one("#page", VerticalScroll).scroll_home(animate=False)
        else:
            ask_in_modal(self.dedale, prompt)

    def offer_fight(self) -> None:
        """A fight starts: the paragraph that brings the enemy is read first (issue 16.1)."""
        self._flush_dice()
        self._show_carried()
        self.refresh_sheet()
        choices = self.query_one(ChoiceList)
        choices.set_options([(self.dedale.texts("app.fight"), True, FIGHT)])
        choices.display = True
        choices.focus()

    def game_over(self) -> None:
        self._flush_dice()
        self._show_carried()
        self.refresh_sheet()
        choices = self.query_one(ChoiceList)
        choices.set_options([(self.dedale.texts("app.the_end"), True, "__end__")])
        choices.display = True
        choices.focus()

    # ------------------------------------------------------------------ input
    def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        self.query_one(ChoiceList).display = False
        self._shown_choices = None
        if message.value == "__end__":
            self.dedale.show_ending()
            return
        if message.value == FIGHT:
            self.dedale.begin_fight()
            return
        self._page_done = True
        self.dedale.answer(message.value)

    def on_key(self, event: Key) -> None:
        choices = self.query_one(ChoiceList)
        if choices.display and event.key.isdigit() and event.key != "0":
            event.stop()
            choices.choose_number(int(event.key))

    def action_scroll_page(self, direction: int) -> None:
        """Page up / page down in a long paragraph (the arrows move in the choices)."""
        page = self.query_one("#page", VerticalScroll)
        if direction < 0:
            page.scroll_page_up()
        else:
            page.scroll_page_down()

    def action_sheet(self) -> None:
        from dedale.player.screens.sheet import SheetScreen

        self.app.push_screen(SheetScreen())

    def action_eat(self) -> None:
        app = self.dedale
        session = app.session
        if session is None:
            return
        game = session.game
        if session.prompt is None or not game.can_eat():  # (no prompt: a fight is waiting)
            app.notify(app.texts("app.cannot_eat"), severity="warning")
            return
        full = meal_at_full(game.book.ruleset, game.state.hero)
        if full is not None:  # a meal at full health restores nothing: ask first (16.8)
            from dedale.player.screens.prompts import YesNoScreen

            question = app.texts("app.eat_full", stat=app.stat_name(full[0]), value=full[1])
            screen = YesNoScreen(question, app.texts("app.yes"), app.texts("app.no"))
            app.push_screen(screen, lambda yes: self._eat() if yes else None)
            return
        self._eat()

    def _eat(self) -> None:
        """Eat a meal and show what it did; the game asks its question again."""
        app = self.dedale
        session = app.session
        if session is None or session.prompt is None or not session.game.can_eat():
            return
        self.show_all(session.game.eat() or ())
        session.resync()  # the game asks the choice again
        self.refresh_sheet()
        app.pump()

    def action_drop(self) -> None:
        """Drop an item at will (issue 13 §7): pick one of the items held, at a choice."""
        app = self.dedale
        session = app.session
        if session is None:
            return
        held = session.game.droppable()
        if not held:
            app.notify(app.texts("app.cannot_drop"), severity="warning")
            return
        options: list[tuple[str, bool, object]] = [(item, True, item) for item in held]
        app.push_screen(PickScreen(app.texts("sheet.drop_which"), options), self._drop)

    def _drop(self, item: object) -> None:
        session = self.dedale.session
        if item is None or session is None:
            return
        self.show_all(session.game.drop(str(item)))
        session.resync()  # the game asks the choice again
        self.refresh_sheet()
        self.dedale.pump()

    def show_all(self, events: Iterable[object]) -> None:
        """Show events returned directly by a game call (eat)."""
        session = self.dedale.session
        for item in events:
            if isinstance(item, ev.Event):
                if session is not None:
                    session.sheet.apply(item)
                self.show(item)

    # ------------------------------------------------------------------ playtest
    def _after_control(self, done: bool, message: str | None = None) -> None:
        app = self.dedale
        if not done:
            app.notify(app.texts("app.not_supported"), severity="warning")
            return
        if message:
            app.notify(message)
        app.forget_waiting_fight()
        if app.session is not None:
            app.session.resync()
        self._page_done = True
        self._shown_choices = None
        self.query_one(ChoiceList).display = False
        app.pump()

    def action_undo(self) -> None:
        session = self.dedale.session
        if session is None:
            return
        try:
            done = playtest.undo(session.game)
        except DedaleError:
            self.dedale.notify(self.dedale.texts("app.nothing_to_undo"), severity="warning")
            return
        self._after_control(done)

    def action_jump(self) -> None:
        def jump(value: object) -> None:
            app = self.dedale
            session = app.session
            if not isinstance(value, int) or session is None:
                return
            if playtest.jump(session.game, value):
                self._after_control(True)
            else:
                app.notify(app.texts("playtest.no_paragraph", number=value), severity="warning")

        self._ask(self.dedale.texts("playtest.jump"), lambda text: whole_number(text, 0), jump)

    def _ask(self, question: str, parse, then) -> None:
        """A playtest box: ``parse`` validates what is typed, ``then`` gets the value."""
        lang = self.dedale.texts.lang
        self.app.push_screen(AskScreen(question, parse=parse, lang=lang), then)

    def action_edit_stat(self) -> None:
        def edit(value: object) -> None:
            session = self.dedale.session
            if not isinstance(value, tuple) or session is None:
                return
            name, number = value
            if playtest.set_stat(session.game, self._stat_id(name), number):
                self._after_control(True)
            else:
                self.dedale.notify(self.dedale.texts("app.not_supported"), severity="warning")

        self._ask(self.dedale.texts("playtest.edit"), name_and_number, edit)

    def _stat_id(self, typed: str) -> str:
        app = self.dedale
        session = app.session
        known = list(session.sheet.stats) if session else []
        for stat in known:
            if typed.casefold() in {stat.casefold(), app.stat_name(stat).casefold()}:
                return stat
        return typed

    def action_god_mode(self) -> None:
        app = self.dedale
        session = app.session
        if session is None:
            return
        on = playtest.toggle_god_mode(session.game)
        if on is None:
            app.notify(app.texts("app.not_supported"), severity="warning")
            return
        app.notify(app.texts("playtest.god_on" if on else "playtest.god_off"))
        self._after_control(True)

    def action_force_dice(self) -> None:
        def force(faces: object) -> None:
            session = self.dedale.session
            if not isinstance(faces, list) or session is None:
                return
            done = playtest.force_dice(session.game, faces)
            self._after_control(done, self.dedale.texts("playtest.forced", faces=faces))

        question = self.dedale.texts("playtest.force")
        self._ask(question, lambda text: whole_numbers(text, 1, 1000), force)

    def action_where(self) -> None:
        app = self.dedale
        number = app.session.paragraph if app.session else None
        span = app.book_view.paragraph_span(number)
        where = str(span) if span else app.texts("app.unavailable")
        app.notify(app.texts("playtest.source", where=where), timeout=8)
