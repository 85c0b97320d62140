"""Indented blocks under ``> if …:`` and ``> otherwise:`` (issue 13.3).

A condition line that ends with ``:`` takes the rule lines indented below it as its
effects::

    > if Bird:
        > gain 4 STAMINA
        > drop Bird
    > otherwise:
        > lose 1 STAMINA

A line belongs to the block when it starts further right than the ``if``/``otherwise``
keyword; the first line that does not closes it. Only effects stand in a block (what a
one-line ``if`` accepts after ``:``, plus ``go to`` and one-line ``if``\\ s); an empty block
is an error at the ``if`` line.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dedale import ast
from dedale.errors import BookStructureError, DedaleError
from dedale.i18n import tr
from dedale.span import Span

EFFECTS = (
    ast.Goto, ast.ChangeValue, ast.GainItem, ast.LoseItem, ast.SetCodeword, ast.ClearCodeword,
    ast.AllowRevisit, ast.MealRule, ast.Ending, ast.NoteParagraph, ast.StatusOn,
    ast.StatusOff, ast.ForcedMeal,
)  # fmt: skip
"""What an ``if`` may do (the grammar's ``simple`` and ``go to``)."""


@dataclass(slots=True)
class OpenBlock:
    """The ``if`` (at ``index`` in the paragraph's body) whose ``field`` takes the lines
    indented below ``span``."""

    index: int
    field: str  # "then" or "otherwise"
    span: Span
    count: int = 0

    def takes(self, item: object) -> bool:
        """Whether ``item`` is indented under the block's line."""
        span = getattr(item, "span", None)
        return span is not None and span.line > self.span.line and span.column > self.span.column

    def add(self, body: list, item: object, errors: list[DedaleError]) -> None:
        """Put ``item`` at the end of the block (or report why it cannot stand there)."""
        self.count += 1
        nested = isinstance(item, ast.If) and item.then
        if not (isinstance(item, EFFECTS) or nested):
            errors.append(
                BookStructureError(
                    tr("only effects can stand indented under `if …:`"),
                    item.span,  # type: ignore[attr-defined]
                    hint=tr(
                        "a choice, a test, a fight or a dice roll goes on a line of its own, "
                        "not indented under the `if`; an `if` inside the block takes its "
                        "effects on its own line (`> if Key: gain 1 LUCK`)"
                    ),
                )
            )
            return
        statement = body[self.index]
        current = getattr(statement, self.field)
        body[self.index] = replace(statement, **{self.field: current + (item,)})

    def close(self, body: list, errors: list[DedaleError]) -> None:
        """Report an empty block."""
        if self.count == 0:
            errors.append(
                BookStructureError(
                    tr("nothing follows this `:`"),
                    self.span,
                    hint=tr(
                        "write the effects after `:` (`> if Key: gain 1 LUCK; drop Key`), or "
                        "on the lines below, indented further than the `if`"
                    ),
                )
            )
