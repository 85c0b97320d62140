"""book.yaml's ``pinned:`` (``fixés:``): the paragraphs ``dedale export --shuffle`` keeps at
their numbers (``pinned: [1, 40, 200]``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dedale.i18n import tr

MAX_PINNED = 10_000


def parse_pinned(value: Any, bad: Callable[..., None], shown: str) -> tuple[int, ...]:
    """The pinned numbers (an int or a list of ints); ``bad(key, message, hint)`` reports a
    value of another kind at its place."""
    if value is None:
        return ()
    values = [value] if isinstance(value, int) and not isinstance(value, bool) else value
    if (
        not isinstance(values, list)
        or len(values) > MAX_PINNED
        or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values)
    ):
        bad(
            "pinned",
            tr("`{key}` must be a list of paragraph numbers", key=shown),
            tr("for example `{key}: [1, 40]`", key=shown),
        )
        return ()
    return tuple(dict.fromkeys(values))
