"""Whether holding more items never closes a way in a book (issue 14.11: the inventory limit).

Where a gain may pass the ruleset's inventory limit, the explorer lets the reader drop any
held item, and the states multiply with the items in flight (a 400-paragraph book with 50
items and a limit of 10: more than a million states). When no condition of the book needs
an item to be *absent* — no ``not``, no ``if`` on an item with an ``otherwise``, no ``if``
on an item whose lines may leave the paragraph or take something away — a state holding
more items can do everything the same state with fewer can (same codewords, class and
paragraph): every move of the smaller has a move of the larger to the same paragraph with
more items. A state reached after a drop is then always outdone by the one that kept the
item, so the reachable paragraphs, and every gate's passable and missing atoms (E028,
W029), are those of the exploration without drops. Only the soft-locks that a drop causes
(W086 "may be dropped here") need the drops themselves: validator.softlocks checks them one
drop at a time (I158 says so).
"""

from __future__ import annotations

from dedale import ast
from dedale.rules.ruleset import fold

# lines an ``if`` on an item may hold: they only add (items, choices) or touch no atom
_ADDING = (
    ast.Prose,
    ast.Choice,
    ast.GainItem,
    ast.MayTake,
    ast.ChangeValue,
    ast.MealRule,
    ast.AllowRevisit,
    ast.Shop,
)


def more_items_never_hurt(graph: object, items: set[str]) -> bool:
    """Whether no condition of the book on a tracked item (``items``: folded names) can be
    passed with fewer items and failed with more (see the module)."""
    for node in graph.nodes.values():  # type: ignore[attr-defined]
        if not _body(node.paragraph.body, items):
            return False
    return True


def _body(body, items: set[str]) -> bool:
    for statement in body:
        if not _statement(statement, items):
            return False
    return True


def _statement(statement, items: set[str]) -> bool:
    condition = getattr(statement, "condition", None)
    if condition is not None and not _positive(condition, items, True):
        return False
    if isinstance(statement, ast.If):
        if _tests_items(statement.condition, items):
            if statement.otherwise or not all(isinstance(s, _ADDING) for s in statement.then):
                return False
        return _body(statement.then, items) and _body(statement.otherwise, items)
    for branch in getattr(statement, "branches", ()) or ():
        if not _body(branch.body, items):
            return False
    wrong = getattr(statement, "wrong", None)
    if isinstance(wrong, tuple) and not _body(wrong, items):
        return False
    return True


def _positive(condition, items: set[str], sign: bool) -> bool:
    """Whether every tracked item of ``condition`` is tested for presence."""
    if isinstance(condition, ast.HasItem):
        return sign or fold(condition.item) not in items
    if isinstance(condition, ast.Not):
        return _positive(condition.operand, items, not sign)
    if isinstance(condition, ast.And | ast.Or):
        return all(_positive(op, items, sign) for op in condition.operands)
    return True


def _tests_items(condition, items: set[str]) -> bool:
    if isinstance(condition, ast.HasItem):
        return fold(condition.item) in items
    if isinstance(condition, ast.Not):
        return _tests_items(condition.operand, items)
    if isinstance(condition, ast.And | ast.Or):
        return any(_tests_items(op, items) for op in condition.operands)
    return False
