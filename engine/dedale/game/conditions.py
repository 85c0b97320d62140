"""Conditions of choices and ``if`` directives, evaluated against a running game."""

from __future__ import annotations

from typing import Protocol

from dedale import ast
from dedale.errors import GameError
from dedale.game.expressions import Scope, evaluate
from dedale.i18n import tr


class World(Scope, Protocol):
    """What conditions read beyond expressions."""

    def item_count(self, item: str) -> int: ...

    def has_codeword(self, codeword: str) -> bool: ...

    def visited(self, ref: ast.ParagraphRef) -> bool: ...

    def world_visited(self, world: str) -> bool: ...

    def has_class(self, name: str) -> bool: ...

    def has_flag(self, name: str) -> bool: ...


def compare(op: str, left: int, right: int) -> bool:
    """``left op right`` for the six comparison operators of the language."""
    if op == "<":
        return left < right
    if op == "<=":
        return left <= right
    if op == "=":
        return left == right
    if op == "!=":
        return left != right
    if op == ">=":
        return left >= right
    if op == ">":
        return left > right
    raise GameError(tr("unknown comparison '{op}'", op=op))


def holds(condition: ast.Condition, world: World) -> bool:
    """Whether ``condition`` is true now."""
    kind = type(condition)
    if kind is ast.HasItem:
        return world.item_count(condition.item) >= condition.count  # type: ignore[union-attr]
    if kind is ast.HasCodeword:
        return world.has_codeword(condition.codeword)  # type: ignore[union-attr]
    if kind is ast.Compare:
        left = evaluate(condition.left, world)  # type: ignore[union-attr]
        right = evaluate(condition.right, world)  # type: ignore[union-attr]
        return compare(condition.op, left, right)  # type: ignore[union-attr]
    if kind is ast.Visited:
        return world.visited(condition.paragraph)  # type: ignore[union-attr]
    if kind is ast.WorldVisited:
        return world.world_visited(condition.world)  # type: ignore[union-attr]
    if kind is ast.HasClass:
        return world.has_class(condition.name)  # type: ignore[union-attr]
    if kind is ast.HasStatus:
        return world.has_status(condition.name)  # type: ignore[union-attr, attr-defined]
    if kind is ast.HasFlag:
        return world.has_flag(condition.name)  # type: ignore[union-attr]
    if kind is ast.Not:
        return not holds(condition.operand, world)  # type: ignore[union-attr]
    if kind is ast.And:
        return all(holds(part, world) for part in condition.operands)  # type: ignore[union-attr]
    if kind is ast.Or:
        return any(holds(part, world) for part in condition.operands)  # type: ignore[union-attr]
    raise GameError(
        tr("cannot evaluate condition {kind}", kind=kind.__name__),
        getattr(condition, "span", None),
    )


def first_failing(condition: ast.Condition, world: World) -> ast.Condition | None:
    """The innermost part of a false condition that makes it false (for the reason shown)."""
    if holds(condition, world):
        return None
    if isinstance(condition, ast.And):
        for part in condition.operands:
            failing = first_failing(part, world)
            if failing is not None:
                return failing
    return condition
