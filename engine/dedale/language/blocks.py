"""Indented blocks under a rule line that ends with ``:`` (issue 13.3).

``> if …:``, ``> otherwise:``, a test outcome (``> unlucky:``) and a dice row (``> 1-3:``)
with nothing after their ``:`` take the rule lines indented below them as their effects::

    > if Bird:
        > gain 4 STAMINA
        > drop Bird
    > otherwise:
        > lose 1 STAMINA

A line belongs to the block when it is indented further than the line that opened it; the
first line that is not closes it. A choice takes the effect lines indented
below it the same way (they run when it is taken, as effects in its parentheses do).
Only effects stand in a block (what may follow ``:`` on the line itself, plus ``go to`` and
one-line ``if``\\ s); an empty block is an error at its line (under a choice it is optional).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dedale import ast
from dedale.errors import BookStructureError, DedaleError
from dedale.i18n import tr
from dedale.span import Span

EFFECTS = (
    ast.Goto, ast.ChangeValue, ast.GainItem, ast.LoseItem, ast.SetCodeword, ast.ClearCodeword,
    ast.AllowRevisit, ast.MealRule, ast.Ending, ast.NoteParagraph, ast.StatusOn,
    ast.StatusOff, ast.ForcedMeal,
)  # fmt: skip
"""What a block may hold (the grammar's ``simple`` and ``go to``)."""

CHOICE_EFFECTS = (
    ast.ChangeValue, ast.GainItem, ast.LoseItem, ast.SetCodeword, ast.ClearCodeword,
    ast.StatusOff,
)  # fmt: skip
"""What may stand indented under a choice (what its parentheses take)."""


@dataclass(slots=True)
class OpenBlock:
    """The line at ``span`` whose body takes the lines indented below it; ``put`` appends
    one statement to that body."""

    span: Span
    put: Callable[[ast.Statement], None]
    count: int = 0
    choice: bool = False  # under a choice: optional, and only its effects are taken

    def takes(self, item: object, indents: dict[int, int]) -> bool:
        """Whether ``item`` is indented under the block's line (``indents``: the leading
        whitespace of each rule line)."""
        span = getattr(item, "span", None)
        if span is None or span.line <= self.span.line:
            return False
        if self.choice and not isinstance(item, CHOICE_EFFECTS):
            return False
        return indents.get(span.line, 0) > indents.get(self.span.line, 0)

    def add(self, item: object, errors: list[DedaleError]) -> None:
        """Put ``item`` at the end of the block (or report why it cannot stand there)."""
        self.count += 1
        nested = isinstance(item, ast.If) and item.then
        if not (isinstance(item, EFFECTS) or nested):
            errors.append(
                BookStructureError(
                    tr("only effects can stand indented under a line that ends with `:`"),
                    item.span,  # type: ignore[attr-defined]
                    hint=tr(
                        "a choice, a test, a fight or a dice roll goes on a line of its own, "
                        "not indented; an `if` inside the block takes its effects on its own "
                        "line (`> if Key: gain 1 LUCK`)"
                    ),
                )
            )
            return
        self.put(item)  # type: ignore[arg-type]

    def close(self, errors: list[DedaleError]) -> None:
        """Report an empty block."""
        if self.count == 0 and not self.choice:
            errors.append(
                BookStructureError(
                    tr("nothing follows this `:`"),
                    self.span,
                    hint=tr(
                        "write the effects after `:` (`> if Key: gain 1 LUCK; drop Key`), or "
                        "on the lines below, indented further than this line"
                    ),
                )
            )
