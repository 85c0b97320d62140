"""The solver's tokens, tree nodes and errors."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dedale.errors import GameError


class SolveLimit(GameError):
    """A book (or a part of it) the solver cannot model exactly: said, never approximated."""


class OutOfTime(BaseException):  # noqa: N818 - a control signal, not an error
    """The deadline passed while one node was being built (the solve reports it)."""


@dataclass(frozen=True, slots=True)
class Leaf:
    """An ending: ``value`` 1 for a victory, 0 for a death."""

    value: float


@dataclass(frozen=True, slots=True)
class Next:
    """The game goes on in the graph node ``node`` (a snapshot before a paragraph)."""

    node: int


@dataclass(frozen=True, slots=True)
class Chance:
    """Dice or a fight decide: ``(probability, token, subtree)`` branches."""

    branches: tuple[tuple[float, Any, Any], ...]


@dataclass(frozen=True, slots=True)
class Decision:
    """The reader decides: ``(token, label, subtree)`` options; ``label`` describes it for
    the walkthrough (a dict such as ``{"kind": "choice", "target": 40, "text": "..."}``)."""

    options: tuple[tuple[Any, dict[str, Any], Any], ...]


Tree = Leaf | Next | Chance | Decision
