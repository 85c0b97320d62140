"""What a reader types, read safely: one parser shared by the Textual and the plain players.

Python's own checks are not enough for typed input: ``"²".isdigit()`` is True but
``int("²")`` fails, and ``int()`` refuses numbers past 4,300 digits. Every number a reader
types goes through :func:`whole_number` (ASCII digits only, at most :data:`MAX_DIGITS`, within
the range the question allows); every failure is a :class:`TypedValueError` whose ``message``
is a translatable sentence for the reader, never Python's own ("invalid literal for int()").
"""

from __future__ import annotations

import re

from dedale.i18n import Message, tr, translate

MAX_DIGITS = 9
"""Longest number a reader may type (a paragraph, a stat, a die face all fit)."""
MAX_VALUES = 20
"""Most numbers one answer may hold (``6 6 1`` to force dice)."""

_NUMBER = re.compile(r"[+-]?[0-9]+")


class TypedValueError(ValueError):
    """A typed value does not fit the question; ``message`` says why, for the reader."""

    def __init__(self, message: Message | str) -> None:
        super().__init__(message)
        self.message = message

    def translate(self, lang: str | None) -> str:
        """The reason in the reader's language."""
        return translate(self.message, lang)


def whole_number(text: str, low: int | None = None, high: int | None = None) -> int:
    """The whole number typed in ``text``, within ``low``-``high`` when given."""
    typed = text.strip()
    if not _NUMBER.fullmatch(typed):
        raise TypedValueError(_expected(low, high))
    if len(typed.lstrip("+-")) > MAX_DIGITS:
        raise TypedValueError(
            tr("that number is too long (at most {count} digits)", count=MAX_DIGITS)
        )
    value = int(typed)
    if (low is not None and value < low) or (high is not None and value > high):
        raise TypedValueError(_expected(low, high))
    return value


def whole_numbers(text: str, low: int | None = None, high: int | None = None) -> list[int]:
    """Several whole numbers separated by spaces or commas (at least one)."""
    parts = text.replace(",", " ").split()
    if not parts:
        raise TypedValueError(_expected(low, high))
    if len(parts) > MAX_VALUES:
        raise TypedValueError(tr("too many numbers (at most {count})", count=MAX_VALUES))
    return [whole_number(part, low, high) for part in parts]


def name_and_number(text: str) -> tuple[str, int]:
    """``SKILL 12`` → ("SKILL", 12): a name, then a whole number."""
    parts = text.strip().rsplit(maxsplit=1)
    if len(parts) != 2 or not parts[0].strip():
        raise TypedValueError(tr("type a name and a number, e.g. SKILL 12"))
    return parts[0].strip(), whole_number(parts[1])


def _expected(low: int | None, high: int | None) -> Message:
    if low is not None and high is not None:
        return tr("type a whole number from {low} to {high}", low=low, high=high)
    if low is not None:
        return tr("type a whole number of at least {low}", low=low)
    return tr("type a whole number")
