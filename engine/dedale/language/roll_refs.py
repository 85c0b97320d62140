"""``ROLL`` / ``TIRAGE`` (the total of the last roll) needs a roll before it (issue 13 §6).

Within one paragraph, a line that reads ``ROLL`` (``> lose ROLL STAMINA``,
``> go to [ROLL + 40]``) must come after a line that throws dice: a dice table
(``> roll 1d6``), a test or a comparison of two rolls; a test's own branches may read it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from dedale import ast
from dedale.errors import BookStructureError, DedaleError
from dedale.i18n import tr

ROLLING = (ast.RandomRoll, ast.Test, ast.DuoTest, ast.D20Test)

PARSED = [0]
"""How many ``ROLL`` nodes the parser has made in this process (``transform.last_roll``, the
only place that makes them: the fast path never does). While 0, no paragraph read can hold
one, and the parser's paragraphs skip :func:`check_roll_refs` (a walk of their statements:
6 ms of the load of a 1,000-paragraph book that reads no ROLL, issue 14.11)."""


def check_roll_refs(body: Sequence[ast.Statement], errors: list[DedaleError]) -> None:
    """Append an error at each ``ROLL`` of ``body`` that no roll comes before."""
    from dedale.language.checks import walk  # lazy: checks imports the parser side

    rolled = False
    for statement in body:
        if isinstance(statement, ROLLING):
            rolled = True  # its branches read the roll it throws
            continue
        if rolled:
            continue
        for found in _last_rolls(walk(statement)):
            errors.append(
                BookStructureError(
                    tr("ROLL / TIRAGE is read here, but no dice were rolled before it"),
                    found.span,
                    tr(
                        "put the roll above it in the paragraph: `> roll 1d6` / `> lancez 1d6` "
                        "(or a test)"
                    ),
                )
            )


def _last_rolls(nodes) -> Iterator[ast.LastRoll]:
    return (node for node in nodes if type(node) is ast.LastRoll)
