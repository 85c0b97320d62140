"""Modal questions: yes/no, pick one of a list, type a value; and the prompt router."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Key
from textual.widgets import Input, Static

from dedale import events as ev
from dedale.i18n import french, translate
from dedale.player.narration import prompt_question
from dedale.player.screens.modal import OnceModal
from dedale.player.widgets.choices import ChoiceList
from dedale.typed import TypedValueError, whole_number

if TYPE_CHECKING:
    from dedale.player.app import DedaleApp

YES_KEYS = {"y", "o", "j"}  # yes / oui / ja
NO_KEYS = {"n"}


class YesNoScreen(OnceModal[bool]):
    """A yes/no question answered with y (o in French) / n, or the list."""

    CSS_PATH = "prompts.tcss"

    def __init__(self, question: str, yes: str, no: str) -> None:
        super().__init__()
        self.question = question
        self.labels = (yes, no)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield ChoiceList()

    def on_mount(self) -> None:
        choices = self.query_one(ChoiceList)
        choices.set_options([(self.labels[0], True, True), (self.labels[1], True, False)])
        choices.focus()

    def on_key(self, event: Key) -> None:
        if event.key in YES_KEYS:
            event.stop()
            self.answer(True)
        elif event.key in NO_KEYS:
            event.stop()
            self.answer(False)
        elif event.key in {"1", "2"}:
            event.stop()
            self.answer(event.key == "1")

    def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        self.answer(bool(message.value))


class PickScreen(OnceModal[object]):
    """Pick one option: (label, enabled, value) each; escape cancels if allowed (None)."""

    CSS_PATH = "prompts.tcss"

    def __init__(
        self, question: str, options: list[tuple[str, bool, object]], cancel: bool = True
    ) -> None:
        super().__init__()
        self.question = question
        self.options = options
        self.can_cancel = cancel

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield ChoiceList()

    def on_mount(self) -> None:
        self.query_one(ChoiceList).set_options(self.options)
        self.query_one(ChoiceList).focus()

    def on_key(self, event: Key) -> None:
        if event.key.isdigit() and event.key != "0":
            event.stop()
            self.query_one(ChoiceList).choose_number(int(event.key))
        elif event.key == "escape" and self.can_cancel:
            event.stop()
            self.answer(None)

    def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        self.answer(message.value)


class AskScreen(OnceModal[object]):
    """Type a value (a number, a paragraph, ``SKILL 12``); escape cancels if allowed.

    ``parse`` (e.g. :func:`dedale.typed.whole_number`) turns the text into the answer; a
    value it refuses keeps the question open with the reason under the box."""

    CSS_PATH = "prompts.tcss"

    def __init__(
        self,
        question: str,
        numbers_only: bool = False,
        cancel: bool = True,
        parse: Callable[[str], object] | None = None,
        lang: str | None = None,
    ) -> None:
        super().__init__()
        self.question = question
        self.numbers_only = numbers_only
        self.can_cancel = cancel
        self.parse = parse
        self.lang = lang

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield Input(type="integer" if self.numbers_only else "text")
            yield Static("", classes="problem")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_key(self, event: Key) -> None:
        if event.key == "escape" and self.can_cancel:
            event.stop()
            self.answer(None)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        typed = message.value.strip()
        if not typed:
            return
        if self.parse is None:
            self.answer(typed)
            return
        try:
            value = self.parse(typed)
        except TypedValueError as error:
            self.query_one(".problem", Static).update(translate(error.message, self.lang))
            return
        self.answer(value)


def ask_in_modal(app: DedaleApp, prompt: ev.Prompt) -> None:
    """Ask any prompt that has no inline place in a screen, then send the answer."""
    texts = app.texts
    match prompt:
        case ev.YesNoPrompt():
            question = prompt_question(prompt, texts)
            app.push_screen(YesNoScreen(question, texts("app.yes"), texts("app.no")), app.answer)
        case ev.TargetPrompt(enemies=enemies):
            options = [
                (french.panel_name(name, texts.articles, texts.lang), True, index)
                for index, name in enumerate(enemies)
            ]
            app.push_screen(PickScreen(texts("fight.target"), options, cancel=False), app.answer)
        case ev.DropItemPrompt(items=items, limit=limit):
            options = [(item, True, item) for item in items]
            question = texts("prompts.drop", limit=limit)
            app.push_screen(PickScreen(question, options, cancel=False), app.answer)
        case ev.NumberPrompt():
            key = f"prompts.{prompt.kind}"
            question = texts(key) if texts.has(key) else texts("prompts.number")
            back = prompt.kind == "hidden_choice"  # escape: 0, back to the choices
            screen = AskScreen(
                question, numbers_only=True, cancel=back, parse=whole_number, lang=texts.lang
            )
            app.push_screen(screen, lambda value: app.answer(0 if value is None else value))
        case ev.ClassPrompt(classes=classes):
            options = [(name, True, name) for name in classes]
            app.push_screen(PickScreen(texts("creation.class"), options, cancel=False), app.answer)
        case ev.NamePrompt(default=default):
            app.push_screen(
                AskScreen(texts("creation.name"), cancel=False),
                lambda value: app.answer(value or default),
            )
        case ev.ChoosePrompt(options=choice_options):
            options = [(app.choice_label(o), o.enabled, o.index) for o in choice_options]
            app.push_screen(PickScreen(texts("app.choose"), options, cancel=False), app.answer)
