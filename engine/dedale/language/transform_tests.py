"""The options that give a test its form (issue 13 §6), shared by every kind of test line:
``(optional)`` / ``(facultatif)`` asks the reader first, ``(until success)`` /
``(jusqu'à réussite)`` rolls again after each failure (see dedale.game.test_forms)."""

from __future__ import annotations

from dedale.span import Span

EVERY_TEST = frozenset({"OPTIONAL", "UNTIL_SUCCESS"})
"""The option terminals every kind of test takes."""


def test_forms(flags: set[str]) -> dict[str, bool]:
    """The test node's ``optional`` and ``repeat`` fields from its line's options."""
    return {"optional": "OPTIONAL" in flags, "repeat": "UNTIL_SUCCESS" in flags}


def refuse_options(flags: set[str], allowed: frozenset[str], span: Span, test: str) -> None:
    """A located error for an option this kind of test does not take."""
    from dedale.language.transform_checks import _refuse_options  # lazy: it imports us

    _refuse_options(flags, allowed, span, test)
