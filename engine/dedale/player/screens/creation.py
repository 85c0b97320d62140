"""Character creation: stats rolled with visible dice, class choice with kit, hero's name."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from dedale import events as ev
from dedale.i18n import translate
from dedale.player.gender import (
    gender_keys,
    gender_options,
    gender_question,
    gender_to_ask,
    keep_gender,
)
from dedale.player.narration import describe, dice_faces
from dedale.player.screens.prompts import ask_in_modal
from dedale.player.widgets.adventure_sheet import AdventureSheet
from dedale.player.widgets.choices import ChoiceList
from dedale.player.widgets.keys import localise_bindings
from dedale.typed import TypedValueError, whole_number

if TYPE_CHECKING:
    from dedale.player.app import DedaleApp


class CreationScreen(Screen[None]):
    """Shows creation events; asks class and name inline."""

    CSS_PATH = "creation.tcss"
    BINDINGS = [("escape", "app.back_to_title", "Back")]

    @property
    def dedale(self) -> DedaleApp:
        return cast("DedaleApp", self.app)

    def compose(self) -> ComposeResult:
        app = self.dedale
        yield Static(app.texts("creation.title"), id="creation-title")
        with Horizontal(id="creation-body"):
            with Vertical(id="creation-main"):
                yield VerticalScroll(id="rolls")
                yield Static("", id="question")
                yield Input(id="hero-name")
                yield Static("", id="gender-question")
                yield ChoiceList(id="creation-choices")
                yield Vertical(id="stats-form")
                yield Static("", id="stats-problem")
            yield AdventureSheet(app.texts, app.stat_name, id="creation-sheet")
        yield Footer()

    def on_mount(self) -> None:
        self._shown_dice: set[str] = set()
        localise_bindings(self, cast("DedaleApp", self.app).texts)
        self.query_one("#hero-name").display = False
        self.query_one("#gender-question").display = False
        self.query_one("#stats-form").display = False
        self.query_one("#stats-problem").display = False
        self.query_one(ChoiceList).display = False
        self._stats: ev.StatsPrompt | None = None
        self._typed = False  # the stats were typed in (not rolled)
        self.refresh_sheet()
        self.dedale.view_ready(self)

    def refresh_sheet(self) -> None:
        session = self.dedale.session
        if session is not None:
            self.query_one(AdventureSheet).show(session.sheet)

    def _log(self, markup: str | Text) -> None:
        self.query_one("#rolls", VerticalScroll).mount(Static(markup, classes="roll"))

    # ------------------------------------------------------------------ GameView
    def show(self, event: ev.Event) -> bool:
        app = self.dedale
        if isinstance(event, ev.DiceRolled):
            purpose = app.stat_name(event.purpose)
            line = app.texts(
                "creation.rolled", stat=purpose, dice=dice_faces(event.faces), total=event.total
            )
            if event.expression:
                line = f"{line}  ({event.expression})"
            self._log(Text(line))
            self._shown_dice.add(event.purpose)
        elif isinstance(event, ev.StatChanged):
            if event.name not in self._shown_dice:
                self._log(Text(self._rolled(event)))
        else:
            line = describe(event, app.texts, app.stat_name, outcome_word=app.outcome_word)
            if line:
                self._log(line)
        self.refresh_sheet()
        return True

    def _rolled(self, event: ev.StatChanged) -> str:
        """``HABILETÉ : 8+CON = 10`` (the game gives the value; the ruleset the expression it
        comes from); ``HABILETÉ : 10`` for a value the reader gave (``--hero``, typed in)."""
        app = self.dedale
        game = app.session.game if app.session is not None else None
        hero = game.state.hero if game is not None else None
        class_id = hero.class_name if hero is not None else None
        given = self._typed or "hero" in getattr(game, "creation", {})
        dice = None
        if event.who == "hero" and not given:
            dice = app.book_view.creation_roll(event.name, class_id)
        if dice is None or dice.strip() == str(event.new):  # a constant: « BONUS : 2 »
            return app.texts("creation.value", stat=app.stat_name(event.name), value=event.new)
        return app.texts(
            "creation.rolled", stat=app.stat_name(event.name), dice=dice, total=event.new
        )

    def ask(self, prompt: ev.Prompt) -> None:
        app = self.dedale
        question = self.query_one("#question", Static)
        choices = self.query_one(ChoiceList)
        name_input = self.query_one("#hero-name", Input)
        if isinstance(prompt, ev.ClassPrompt):
            infos = app.book_view.classes(app.texts.lang)
            question.update(app.texts("creation.class"))
            labels = []
            for name in prompt.classes:
                info = infos.get(name)
                label = f"[b]{info.name if info else name}[/b]"
                if info and info.description:
                    label += f" — {info.description}"
                if info and info.kit:
                    kit = ", ".join(app.stat_name(item) for item in info.kit)
                    label += "\n   " + app.texts("creation.kit", kit=kit)
                labels.append((label, True, name))
            choices.set_options(labels)
            choices.display = True
            choices.focus()
        elif isinstance(prompt, ev.StatsPrompt):
            question.update(app.texts("creation.stats"))
            choices.display = False
            self._ask_stats(prompt)
        elif isinstance(prompt, ev.NamePrompt):
            question.update(app.texts("creation.name"))
            choices.display = False
            texts = app.texts
            if gender_to_ask(texts.lang, texts.chosen_gender, texts.book_gender):
                self._offer_gender(None)  # beside the name: Enter alone keeps the masculine
            name_input.value = ""
            name_input.placeholder = prompt.default  # Enter alone keeps it
            name_input.display = True
            name_input.focus()
        else:
            ask_in_modal(app, prompt)

    def _ask_stats(self, prompt: ev.StatsPrompt) -> None:
        """One typed box per stat, labelled with its name and range (book.yaml fixed_stats)."""
        app = self.dedale
        self._stats = prompt
        form = self.query_one("#stats-form", Vertical)
        form.remove_children()
        for index, entry in enumerate(prompt.stats):
            label = app.texts(
                "creation.stat_box", stat=app.stat_name(entry.stat), low=entry.low, high=entry.high
            )
            form.mount(
                Horizontal(
                    Static(label, classes="stat-label"),
                    Input(
                        id=f"stat-{index}",
                        classes="stat-box",
                        placeholder=f"{entry.low}-{entry.high}",
                    ),
                    classes="stat-row",
                )
            )
        form.display = True
        self.query_one("#stats-problem", Static).display = True
        self.query_one("#stats-problem", Static).update("")
        self.call_after_refresh(lambda: self.query_one("#stat-0", Input).focus())

    def _submit_stats(self, submitted: Input) -> None:
        """Enter in a box: on to the next empty box, or check them all and answer."""
        prompt = self._stats
        if prompt is None:
            return
        app = self.dedale
        boxes = [self.query_one(f"#stat-{i}", Input) for i in range(len(prompt.stats))]
        typed = [box.value.strip() for box in boxes]
        problem = self.query_one("#stats-problem", Static)
        if not any(typed):
            self._answer_stats(None)
            return
        after = boxes.index(submitted) + 1 if submitted in boxes else 0
        for box, text in zip(boxes[after:], typed[after:], strict=True):
            if not text:
                box.focus()
                return
        values: list[int] = []
        for entry, box, text in zip(prompt.stats, boxes, typed, strict=True):
            if not text:
                problem.update(app.texts("creation.stats_incomplete"))
                box.focus()
                return
            try:
                values.append(whole_number(text, entry.low, entry.high))
            except TypedValueError as error:
                reason = translate(error.message, app.texts.lang)
                problem.update(
                    app.texts("creation.stat_bad", stat=app.stat_name(entry.stat), reason=reason)
                )
                box.focus()
                return
        self._answer_stats(tuple(values))

    def _answer_stats(self, value: tuple[int, ...] | None) -> None:
        self._typed = value is not None  # typed in: no dice to show for them
        self._stats = None
        self.query_one("#stats-form").display = False
        self.query_one("#stats-problem", Static).display = False
        self.query_one("#question", Static).update("")
        self.dedale.answer(value)

    def game_over(self) -> None:
        self.dedale.show_ending()

    def ready(self) -> None:
        """Creation done: offer to start the adventure."""
        self.refresh_sheet()
        self.query_one("#hero-name").display = False
        self.query_one("#question", Static).update("")
        choices = self.query_one(ChoiceList)
        choices.set_options([(self.dedale.texts("creation.start"), True, "start")])
        choices.display = True
        choices.focus()

    # ------------------------------------------------------------------ input
    def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        self.query_one(ChoiceList).display = False
        if message.value == "start":
            self.dedale.enter_reading()
        elif isinstance(message.value, str) and message.value.startswith("gender:"):
            self._answer_gender(message.value.removeprefix("gender:"))
        else:
            self.dedale.answer(message.value)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        if message.input.id != "hero-name":
            self._submit_stats(message.input)
            return
        self._confirm_name(message.input)

    def _confirm_name(self, name_input: Input) -> bool:
        """Answer the name prompt with the typed name, else the default one; False (nothing
        done) when there is neither."""
        name = name_input.value.strip() or name_input.placeholder
        if not name:
            return False
        name_input.display = False
        self.query_one("#question", Static).update("")
        if self._gender_offered:
            self._gender_offered = False
            self.query_one(ChoiceList).display = False
            self.query_one("#gender-question").display = False
        self.dedale.answer(name)
        return True

    _gender_offered = False

    def _offer_gender(self, chosen: str | None) -> None:
        """The hero's gender (player.gender) offered under the name box, the current one
        marked; choosing one keeps it and confirms the name (the typed one, else the
        default), or gives the focus back to the name box when there is none."""
        app = self.dedale
        lang = app.texts.lang
        self._gender_offered = True
        asked = self.query_one("#gender-question", Static)
        asked.update(Text.assemble(gender_question(lang), "\n", (gender_keys(lang), "dim")))
        asked.display = True
        marked = [
            (("● " if g == (chosen or "m") else "○ ") + label, True, f"gender:{g}")
            for label, g in gender_options(lang)
        ]
        choices = self.query_one(ChoiceList)
        choices.set_options(marked)
        choices.display = True

    def _answer_gender(self, gender: str) -> None:
        app = self.dedale
        app.texts.chosen_gender = gender
        if app.session is not None:
            keep_gender(app.session.game, gender)
        self._offer_gender(gender)
        name_input = self.query_one("#hero-name", Input)
        if not self._confirm_name(name_input):  # one Enter chooses and goes on
            name_input.focus()  # no name yet (and no default one): type it, then Enter

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", "")
        choices = self.query_one(ChoiceList)
        if self._gender_offered and self.query_one("#hero-name", Input).has_focus:
            return  # digits go into the name; Tab reaches the gender
        if choices.display and key.isdigit() and key != "0":
            choices.choose_number(int(key))
