"""Why a step of the path of fights is ``≈``, as the report says it (issue 14.4).

Each paragraph of the path that is not followed exactly says one reason: the first that
made it ``≈`` in the order the chain met them (:func:`first_reasons`). Reasons are
:class:`~dedale.i18n.Message` objects, translated when the report is written, so that the
reader reads them in his language: an error caught on the way keeps its message, not its
English text (:func:`error_reason`).
"""

from __future__ import annotations

from collections.abc import Iterable

from dedale.errors import DedaleError
from dedale.i18n import Message


def error_reason(error: BaseException) -> Message | str:
    """An error's message as a reason: the Message it carries when it has one."""
    if isinstance(error, DedaleError):
        return error.message
    first = error.args[0] if error.args else None
    if isinstance(first, Message):
        return first
    return str(first) if first is not None else type(error).__name__


def first_reasons(reasons: Iterable[tuple[int, Message]]) -> tuple[tuple[int, Message], ...]:
    """One reason a paragraph: the first met."""
    found: dict[int, Message] = {}
    for paragraph, reason in reasons:
        found.setdefault(paragraph, reason)
    return tuple(found.items())
