"""Line-level parts the LineTransformer yields besides AST nodes (grouped into paragraphs,
tests and fights by dedale.language.assemble), and small token helpers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dedale import ast
from dedale.limits import STAT
from dedale.limits import number as _number
from dedale.span import Span

if TYPE_CHECKING:
    from lark import Token

# --------------------------------------------------------------------------- line parts


@dataclass(frozen=True, slots=True)
class Header:
    """``§ 12 label``: starts a paragraph."""

    span: Span
    number: int
    label: str | None


@dataclass(frozen=True, slots=True)
class FightPart:
    """A line that completes the last fight: enemy, win, lose, escape, limit, bonus."""

    span: Span
    kind: str
    value: Any


@dataclass(frozen=True, slots=True)
class ElsePart:
    """``otherwise: ...``: completes the last ``if``."""

    span: Span
    body: tuple[ast.Statement, ...]


@dataclass(frozen=True, slots=True)
class Mod:
    """A modifier or option group of a test line, before grouping."""

    span: Span
    value: int | None
    options: tuple[tuple[str, str], ...]  # (terminal type, text as written)
    condition: Any = None  # ``-1 if Dagger``: an ast condition


def signed(tok: Token) -> int:
    """An integer token that may hold spaces after its sign (``+ 2``)."""
    # The file is filled in by the parser (dedale.language.parser), which knows it.
    span = Span("", tok.line, tok.column, tok.end_line, tok.end_column)
    return _number(str(tok), STAT, span)
