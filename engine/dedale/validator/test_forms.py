"""What the validator knows of the test forms of issue 13 §6 (see dedale.game.test_forms):
which outcomes a test line can have, whether it asks the reader, and the conditions of its
modifiers (``-1 if Dagger``), which the item and codeword checks read like any other."""

from __future__ import annotations

from collections.abc import Iterator

from dedale import ast
from dedale.errors import DedaleError
from dedale.rules.dice import parse_dice

TESTS = (ast.Test, ast.DuoTest, ast.D20Test)
ROLL_KEY = "roll:last"
"""The name under which ``ROLL`` / ``TIRAGE`` takes its values (see dedale.validator.values)."""
MAX_ROLL_VALUES = 1000


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


def roll_values(book: object, number: int) -> set[int] | None:
    """The totals ``ROLL`` may hold in paragraph ``number``: those of every roll the
    paragraph throws (a dice table, a dice test, a comparison's first dice, a test of the
    ruleset); None when one of them cannot be told."""
    paragraph = (getattr(book, "paragraphs", None) or {}).get(number)
    if paragraph is None:
        return None
    found: set[int] = set()
    for statement in paragraph.body:
        if not isinstance(statement, (ast.RandomRoll, *TESTS)):
            continue
        totals = _totals(statement, book)
        if totals is None:
            return None
        found |= totals
    return found or None


def _totals(statement: ast.Statement, book: object) -> set[int] | None:
    if isinstance(statement, ast.RandomRoll):
        text = statement.dice.text
    elif type(statement) is ast.Test and statement.dice is not None:
        text = statement.dice.text
    elif type(statement) is ast.Test:
        test = _ruleset_test(book, statement.name)
        text = test.dice.text if test is not None else None
    else:
        return None  # duo and d20 totals depend on the hero
    try:
        expr = parse_dice(text) if text else None
    except DedaleError:
        return None
    if expr is None or expr.names or expr.max() - expr.min() > MAX_ROLL_VALUES:
        return None
    return set(range(expr.min(), expr.max() + 1))


def _ruleset_test(book: object, name: str):
    tests = getattr(getattr(book, "ruleset", None), "tests", None) or {}
    if name in tests:
        return tests[name]
    wanted = name.casefold()
    for test in tests.values():
        if wanted in {n.casefold() for n in (test.id, *test.names.values())}:
            return test
    return None
