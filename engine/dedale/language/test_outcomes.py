"""Outcome lines that a test line can never end on (issue 13 §6): a load error at the line.

``declined`` / ``refus`` needs an optional test (``(optional)`` / ``(facultatif)``);
``higher`` / ``lower`` / ``equal`` belong to a comparison of two rolls
(``roll 2d6 against 2d6``), which ends on nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

from dedale import ast
from dedale.errors import BookStructureError, DedaleError
from dedale.i18n import tr

TESTS = (ast.Test, ast.DuoTest, ast.D20Test)
COMPARED = frozenset({"higher", "lower", "equal"})


def check_test_outcomes(body: Sequence[ast.Statement], errors: list[DedaleError]) -> None:
    """Append an error for each outcome line of ``body`` its test can never end on."""
    for statement in body:
        if not isinstance(statement, TESTS):
            continue
        compared = type(statement) is ast.Test and statement.against is not None
        for branch in statement.branches:
            error = _refused(branch, compared, statement.optional)
            if error is not None:
                errors.append(error)


def _refused(branch: ast.Branch, compared: bool, optional: bool) -> BookStructureError | None:
    outcome = branch.outcome
    if outcome == "declined":
        if optional:
            return None
        return BookStructureError(
            tr("only an optional test can be declined"),
            branch.span,
            tr("add `(optional)` / `(facultatif)` to the test line, or remove this line"),
        )
    if compared and outcome not in COMPARED:
        return BookStructureError(
            tr("a comparison of two rolls ends higher, lower or equal, never on this outcome"),
            branch.span,
            tr("write `higher` / `lower` / `equal` (`supérieur` / `inférieur` / `égalité`)"),
        )
    if not compared and outcome in COMPARED:
        return BookStructureError(
            tr("higher, lower and equal are the outcomes of a comparison of two rolls"),
            branch.span,
            tr("compare two rolls with `> roll 2d6 against 2d6` / `> lancez 2d6 contre 2d6`"),
        )
    return None
