"""Which lines of a paragraph are rules, for the order they run in (issue 13.5).

Choices followed by a rule line are offered when the reading reaches that rule (with a
"go on" option), not at the end of the paragraph: the interpreter
(dedale.game.runner) and the validator's graph read this one definition.
"""

from __future__ import annotations

from dedale import ast

NOT_RULES = frozenset(
    {
        ast.Prose, ast.Choice, ast.AllowRevisit, ast.MealRule, ast.HiddenParagraph,
        ast.OpenWorld, ast.NoteParagraph,
    }
)  # fmt: skip
"""Lines that are no rule but say something of the paragraph itself (it opens a World, it is
noted, it is hidden, its meals and revisits): they never make the choices before them be
offered early."""


def is_rule(statement: ast.Statement) -> bool:
    """Whether the choices read before ``statement`` are offered when the reading reaches it.

    A hidden-number prompt written as a choice line (``-> ? (40, 56) ...``) is one of the
    choices, not a rule."""
    kind = type(statement)
    if kind is ast.HiddenNumber:
        return not statement.offered  # type: ignore[union-attr]
    return kind not in NOT_RULES
