"""Hidden-number lines (issue 13): the choice-line prompt ``-> ? (40, 56) Text``, the
``> hidden number`` directive with its own answers, and the ``> wrong number: ...`` lines
that say what a wrong number does (attached to the prompt before them)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from dedale import ast
from dedale.errors import BookStructureError, BookSyntaxError, DedaleError
from dedale.i18n import tr
from dedale.span import Span


@dataclass(frozen=True, slots=True)
class WrongNumberPart:
    """``> wrong number: ...`` / ``> mauvais nombre -> 12``: completes the last prompt."""

    span: Span
    body: tuple[ast.Statement, ...]


def hidden_choice(span: Span, answers: tuple[ast.ParagraphRef, ...], options, text: str):
    """The choice-line prompt, from its answers, its option groups and its text."""
    condition: ast.Condition | None = None
    display = "hidden"
    for kind, value in options:
        if kind == "if":
            condition = (
                value
                if condition is None
                else ast.And(span=value.span, operands=(condition, value))
            )
        elif kind == "display":
            display = value
        else:
            raise BookSyntaxError(
                tr("a hidden-number choice cannot take `pay`, `give` or `revisit`"),
                span,
                tr("keep `(if ...)`, `(disabled)` or `(hidden)` on it; pay in the answer"),
            )
    return ast.HiddenNumber(
        span=span,
        answers=answers,
        offered=True,
        text=text,
        condition=condition,
        display=display,  # type: ignore[arg-type]
    )


def attach_wrong(body: list[ast.Statement], part: WrongNumberPart, errors: list[DedaleError]):
    """Add a ``wrong number`` line to the last hidden-number prompt of the paragraph."""
    for index in range(len(body) - 1, -1, -1):
        prompt = body[index]
        if isinstance(prompt, ast.HiddenNumber):
            body[index] = replace(prompt, wrong=prompt.wrong + part.body)
            return
    errors.append(
        BookStructureError(
            tr("`wrong number` without a hidden-number prompt before it"),
            part.span,
            hint=tr(
                "write `-> ? (40, 56) text` or `> hidden number (40, 56)` first; "
                "`wrong number` says what any other number does"
            ),
        )
    )
