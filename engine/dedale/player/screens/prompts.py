"""Modal questions: yes/no, pick one of a list, type a value; and the prompt router."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from dedale import events as ev
from dedale.player.narration import prompt_question
from dedale.player.widgets.choices import ChoiceList

if TYPE_CHECKING:
    from dedale.player.app import DedaleApp

YES_KEYS = {"y", "o", "j"}  # yes / oui / ja
NO_KEYS = {"n"}


class YesNoScreen(ModalScreen[bool]):
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
            self.dismiss(True)
        elif event.key in NO_KEYS:
            event.stop()
            self.dismiss(False)
        elif event.key in {"1", "2"}:
            event.stop()
            self.dismiss(event.key == "1")

    def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        self.dismiss(bool(message.value))


class PickScreen(ModalScreen[object]):
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
            self.dismiss(None)

    def on_choice_list_chosen(self, message: ChoiceList.Chosen) -> None:
        self.dismiss(message.value)


class AskScreen(ModalScreen[str | None]):
    """Type a value (a number, a paragraph, ``SKILL 12``); escape cancels if allowed."""

    CSS_PATH = "prompts.tcss"

    def __init__(self, question: str, numbers_only: bool = False, cancel: bool = True) -> None:
        super().__init__()
        self.question = question
        self.numbers_only = numbers_only
        self.can_cancel = cancel

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            yield Input(type="integer" if self.numbers_only else "text")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_key(self, event: Key) -> None:
        if event.key == "escape" and self.can_cancel:
            event.stop()
            self.dismiss(None)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        if message.value.strip():
            self.dismiss(message.value.strip())


def ask_in_modal(app: DedaleApp, prompt: ev.Prompt) -> None:
    """Ask any prompt that has no inline place in a screen, then send the answer."""
    texts = app.texts
    match prompt:
        case ev.YesNoPrompt():
            question = prompt_question(prompt, texts)
            app.push_screen(YesNoScreen(question, texts("app.yes"), texts("app.no")), app.answer)
        case ev.TargetPrompt(enemies=enemies):
            options = [(name, True, index) for index, name in enumerate(enemies)]
            app.push_screen(PickScreen(texts("fight.target"), options, cancel=False), app.answer)
        case ev.DropItemPrompt(items=items, limit=limit):
            options = [(item, True, item) for item in items]
            question = texts("prompts.drop", limit=limit)
            app.push_screen(PickScreen(question, options, cancel=False), app.answer)
        case ev.NumberPrompt():
            key = f"prompts.{prompt.kind}"
            question = texts(key) if texts.has(key) else texts("prompts.number")
            app.push_screen(
                AskScreen(question, numbers_only=True, cancel=False),
                lambda value: app.answer(int(value or 0)),
            )
        case ev.ClassPrompt(classes=classes):
            options = [(name, True, name) for name in classes]
            app.push_screen(PickScreen(texts("creation.class"), options, cancel=False), app.answer)
        case ev.NamePrompt(default=default):
            app.push_screen(
                AskScreen(texts("creation.name"), cancel=False),
                lambda value: app.answer(value or default),
            )
        case ev.ChoosePrompt(options=choice_options):
            options = [(o.text, o.enabled, o.index) for o in choice_options]
            app.push_screen(PickScreen(texts("app.choose"), options, cancel=False), app.answer)
