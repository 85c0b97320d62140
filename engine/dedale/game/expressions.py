"""Expressions and text interpolation, evaluated against a running game.

The interpreter passes a :class:`Scope`: how to read a stat or counter (current or initial
value), how to roll dice, the number of the current paragraph and the hero's name and class.
Evaluation never executes anything from the book: it walks the frozen AST.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Protocol

from dedale import ast
from dedale.errors import GameError
from dedale.i18n import tr
from dedale.language.prose_refs import is_prose_ref, parse_prose_ref
from dedale.span import Span


class Scope(Protocol):
    """What expressions and interpolations read from the game."""

    def value(self, name: str, initial: bool = False) -> int:
        """A stat or counter (by name as written), current or initial value."""
        ...

    def roll(self, text: str, span: Span | None) -> int:
        """Roll a dice expression (emitting its DiceRolled event) and return the total."""
        ...

    @property
    def paragraph(self) -> int:
        """The number of the paragraph being read."""
        ...

    def word(self, name: str) -> str | None:
        """A non-numeric interpolation (``name``/``nom``, ``class``/``classe``), or None."""
        ...


def evaluate(expr: ast.Expr, scope: Scope) -> int:
    """The integer value of ``expr``; division rounds down, division by zero is an error."""
    kind = type(expr)
    if kind is ast.Num:
        return expr.value  # type: ignore[union-attr]
    if kind is ast.ValueRef:
        return scope.value(expr.name, expr.initial)  # type: ignore[union-attr]
    if kind is ast.DiceRoll:
        return scope.roll(expr.text, expr.span)  # type: ignore[union-attr]
    if kind is ast.CurrentParagraph:
        return scope.paragraph
    if kind is ast.BinOp:
        left = evaluate(expr.left, scope)  # type: ignore[union-attr]
        right = evaluate(expr.right, scope)  # type: ignore[union-attr]
        return _apply(expr, left, right)  # type: ignore[arg-type]
    if kind is ast.NotedParagraph:
        return _scope_call(scope, "noted", expr.name, expr.span)  # type: ignore[union-attr]
    if kind is ast.PreviousParagraph:
        return _scope_call(scope, "came_from", expr.span)
    if kind is ast.ItemNumber:
        return _scope_call(scope, "item_number", expr.item, expr.span)  # type: ignore[union-attr]
    if kind is ast.LastRoll:
        return _scope_call(scope, "last_roll", expr.span)
    raise GameError(tr("cannot evaluate {kind}", kind=kind.__name__), getattr(expr, "span", None))


def _scope_call(scope: Scope, method: str, *args) -> int:
    """A value only a running game knows (noted and previous paragraphs)."""
    found = getattr(scope, method, None)
    if found is None:
        raise GameError(tr("this value needs a running game ({method})", method=method), args[-1])
    return found(*args)


def _apply(expr: ast.BinOp, left: int, right: int) -> int:
    value = expr.apply(left, right)
    if value is None:
        raise GameError(tr("division by zero"), expr.span, hint=tr("the divisor evaluated to 0"))
    return value


_PLACEHOLDER = re.compile(r"\{([^{}\n]{1,60})\}")


def interpolate(text: str, scope: Scope, on_error: Callable[[str], str] | None = None) -> str:
    """Replace ``{NAME}`` in prose with stats, counters, the hero's name or class.

    ``{{`` and ``}}`` stand for literal braces. An unknown name is left as written (the
    validator reports it) unless ``on_error`` says otherwise.
    """
    if "{" not in text:
        return text
    guarded = text.replace("{{", "\x00").replace("}}", "\x01")

    def replace(match: re.Match[str]) -> str:
        name = match.group(1).strip()
        if is_prose_ref(name):
            return _prose_ref(name, scope) or match.group(0)
        word = scope.word(name)
        if word is not None:
            return word
        initial = False
        lowered = name.lower()
        for suffix in (" initial", " initiale", " initiales", " initials"):
            if lowered.endswith(suffix):
                name, initial = name[: -len(suffix)].strip(), True
                break
        try:
            return str(scope.value(name, initial))
        except GameError:
            return on_error(match.group(0)) if on_error else match.group(0)

    return _PLACEHOLDER.sub(replace, guarded).replace("\x00", "{").replace("\x01", "}")


def _prose_ref(inside: str, scope: Scope) -> str | None:
    """``{§ 12}`` shown as ``12`` (``{§ cellar}``: the labelled paragraph's number)."""
    reference = parse_prose_ref(inside)
    if reference is None:
        return None
    if reference.number is not None:
        return str(reference.number)
    destination = getattr(scope, "destination", None)
    number = destination(reference) if destination is not None else None
    return str(number) if number is not None else None
