"""What the validator knows of the test forms of issue 13 §6 (see dedale.game.test_forms):
which outcomes a test line can have, whether it asks the reader, and the conditions of its
modifiers (``-1 if Dagger``), which the item and codeword checks read like any other."""

from __future__ import annotations

from collections.abc import Iterator

from dedale import ast

TESTS = (ast.Test, ast.DuoTest, ast.D20Test)


def outcomes(statement: ast.Test | ast.DuoTest | ast.D20Test) -> frozenset[str]:
    """The plain outcomes a test line can end on (criticals fall back to these): a
    comparison is higher/lower/equal; a test repeated until success ends only on a success
    (or the hero's death); an optional test may also be declined."""
    if type(statement) is ast.Test and statement.against is not None:
        found = {"higher", "lower", "equal"}
    elif statement.repeat:
        found = {"success"}
    else:
        found = {"success", "failure"}
    if statement.optional:
        found.add("declined")
    return frozenset(found)


def ends_here(statement: ast.Statement, branch: ast.Branch) -> bool:
    """Whether reading may go on after ``branch``'s body: not after a failure of a test
    repeated until success (the dice are thrown again)."""
    repeated = isinstance(statement, TESTS) and statement.repeat
    return not (repeated and branch.outcome in ("failure", "critical_failure"))


def asks(statement: ast.Statement) -> bool:
    """True for a test line that asks the reader first (``(optional)``)."""
    return isinstance(statement, TESTS) and statement.optional


def modifier_conditions(statement: ast.Statement) -> Iterator[ast.Condition]:
    """The conditions of a test line's modifiers."""
    if isinstance(statement, TESTS):
        for modifier in statement.modifiers:
            if modifier.condition is not None:
                yield modifier.condition
