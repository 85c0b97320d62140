"""The numbered list of choices: keys 1-9, arrows and Enter, or the mouse."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from dedale.events import ChoiceOption


class ChoiceList(OptionList):
    """Shows ChoiceOptions; disabled ones are greyed with their reason."""

    DEFAULT_CSS = """
    ChoiceList {
        height: auto;
        max-height: 12;
        border: none;
        padding: 0;
        background: $surface;
    }
    ChoiceList:focus {
        border: none;
    }
    """

    @dataclass
    class Chosen(Message):
        """The reader picked an enabled option; ``value`` is the answer to send."""

        value: object

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.values: list[object] = []

    def set_options(self, labels: list[tuple[str, bool, object]]) -> None:
        """Replace the options: (label, enabled, answer value) per option, numbered from 1."""
        self.clear_options()
        self.values = [value for _, _, value in labels]
        options = []
        for number, (label, enabled, _) in enumerate(labels, start=1):
            text = Text(f"{number}. " if number <= 9 else "   ")
            text.append(Text.from_markup(label) if enabled else Text(label, style="dim"))
            options.append(Option(text, id=f"choice-{number}", disabled=not enabled))
        self.add_options(options)
        first = next((i for i, (_, on, _) in enumerate(labels) if on), None)
        self.highlighted = first

    def show_choices(
        self,
        options: tuple[ChoiceOption, ...],
        blank: Callable[[int | None], str] | None = None,
        label: Callable[[ChoiceOption], str] | None = None,
    ) -> None:
        """Show a ChoosePrompt's options; disabled ones carry their reason. A choice written
        with no text (``-> 12``) shows ``blank(target)`` ("Turn to 12"); ``label``, when
        given, words every option (``DedaleApp.choice_label``)."""
        labels = []
        for o in options:
            text = o.text if o.text.strip() or blank is None else blank(o.target)
            if label is not None:
                text = label(o)
            if not o.enabled and o.reason:
                text = f"{text} ({o.reason})"
            labels.append((text, o.enabled, o.index))
        self.set_options(labels)

    def choose_number(self, number: int) -> bool:
        """Pick the option shown as ``number``; False if there is none or it is disabled."""
        index = number - 1
        if not 0 <= index < self.option_count:
            return False
        if self.get_option_at_index(index).disabled:
            return False
        self.post_message(self.Chosen(self.values[index]))
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Chosen(self.values[event.option_index]))
