"""Hidden numbers (issues 8 and 13), a mixin of the Runner: the number the reader works
out and turns to.

Two forms share :class:`dedale.ast.HiddenNumber`. The directive (``> hidden number``) asks
at once: a number among the prompt's answers is entered; any other (0: "I don't know")
runs the ``wrong number`` lines, then goes to ``otherwise`` or reads on. The choice-line
form (``-> ? (40, 56) Text``) is one option among the paragraph's choices: taken, it asks
the number; 0 steps back to the choices; a wrong number runs the ``wrong number`` lines
(or, with none, is refused) and the reader chooses again. After :data:`MAX_WRONG` wrong
numbers in one visit the option is disabled, so no game loops on it.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from dedale import ast, events
from dedale.errors import GameError
from dedale.i18n import tr

Gen = Generator[Any, Any, Any]

MAX_WRONG = 3
"""Wrong numbers a reader may try at one hidden-number choice, per visit of its paragraph."""


def hidden_paragraphs(book) -> frozenset[int]:
    """The paragraphs reached by hidden numbers: those that declare ``> hidden paragraph``,
    and those book.yaml lists under ``validator: hidden:``."""
    declared = {
        number
        for number, paragraph in book.paragraphs.items()
        if any(type(statement) is ast.HiddenParagraph for statement in paragraph.body)
    }
    validator = getattr(getattr(book, "meta", None), "validator", None) or {}
    listed = validator.get("hidden") if hasattr(validator, "get") else None
    for number in listed if isinstance(listed, list | tuple) else ():
        if isinstance(number, int) and not isinstance(number, bool):
            declared.add(number)
    return frozenset(declared & set(book.paragraphs))


class HiddenNumbers:
    """The Runner's handlers of hidden-number prompts."""

    # ------------------------------------------------------------------ answers
    def _hidden_set(self) -> frozenset[int]:
        cache = self._cache
        if cache.hidden is None:
            cache.hidden = hidden_paragraphs(self.book)
        return cache.hidden

    def hidden_answers(self, statement: ast.HiddenNumber) -> tuple[int, ...]:
        """The numbers this prompt opens: its own answers, else every hidden paragraph."""
        if statement.answers is None:
            return tuple(sorted(self._hidden_set()))
        found = []
        for ref in statement.answers:
            number = self.destination(ref)
            if number is None:
                raise GameError(
                    tr("this answer names no paragraph"),
                    ref.span,
                    hint=tr("write the number of the paragraph the right answer opens"),
                )
            found.append(number)
        return tuple(found)

    def _enter_answer(self, number: int, statement: ast.HiddenNumber) -> int:
        if number not in self.book.paragraphs:
            raise GameError(
                tr("the answer {number} names no paragraph of this book", number=number),
                statement.span,
                hint=tr("write that paragraph, or fix the prompt's answers"),
            )
        return number

    # ------------------------------------------------------------------ wrong tries
    def _wrong_tries(self) -> dict[int, int]:
        """Wrong numbers tried at each choice prompt (by id) during this visit."""
        visit = (self.state.paragraph, self.state.visited.get(self.state.paragraph or 0, 0))
        kept = getattr(self, "_hidden_tries", None)
        if kept is None or kept[0] != visit:
            kept = self._hidden_tries = (visit, {})
        return kept[1]

    def hidden_refusal(self, statement: ast.HiddenNumber) -> str:
        """Why a hidden-number choice is not offered now ("" when it is)."""
        if self._wrong_tries().get(id(statement), 0) >= MAX_WRONG:
            return self.text("reason.hidden_tries", tries=MAX_WRONG)
        return ""

    # ------------------------------------------------------------------ the prompts
    def _hidden_number(self, statement: ast.HiddenNumber) -> Gen:
        """The directive: ask now; a wrong number runs its lines, then ``otherwise``."""
        if statement.offered:  # the choice-line form waits among the choices
            self._choices.append(statement)
            return None
        answers = self.hidden_answers(statement)
        number = yield events.NumberPrompt(kind="hidden_number", answers=answers)
        if number and number in answers:
            return self._enter_answer(number, statement)
        if statement.wrong:
            flow = yield from self._block(statement.wrong)
            if flow is not None:
                return flow
        if statement.otherwise is not None:
            return self.destination(statement.otherwise, required=True)
        return None

    def take_hidden_choice(self, statement: ast.HiddenNumber) -> Gen:
        """The choice-line form, taken: ask the number. Returns where to go, or None to
        offer the choices again (0, or a wrong number that did not send the reader away)."""
        answers = self.hidden_answers(statement)
        number = yield events.NumberPrompt(kind="hidden_choice", answers=answers)
        if not number:
            return None  # "I don't know": back to the choices, nothing lost
        if number in answers:
            return self._enter_answer(number, statement)
        tries = self._wrong_tries()
        tries[id(statement)] = tries.get(id(statement), 0) + 1
        if self.emit:
            yield events.MessageShown(key="hidden_wrong", params=(("number", number),))
        if statement.wrong:
            # the wrong-number lines run on their own: the choices around the prompt are
            # not offered again before them (they are, after, if the reader stays)
            choices, self._choices = self._choices, []
            try:
                flow = yield from self._block(statement.wrong)
            finally:
                self._choices = choices
            if self._text or self._held:
                yield from self.flush()
            return flow
        return None
