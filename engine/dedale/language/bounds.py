"""Load-time bounds on paragraph text: line lengths, nesting, expression size, dice.

``check_lines`` runs before Lark and drops the rule lines it refuses (so a 120 KB
condition never reaches the parser); ``check_items`` runs on what a line became and
refuses what a book can never play: dice no table could roll (``0d6``, ``1d0``,
``1000000d1000000``, in a directive or an enemy's stats) and oversized conditions. Every
error is located at the line. The bounds are in :mod:`dedale.limits`.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from dedale import ast, limits
from dedale.errors import BookSyntaxError, DedaleError
from dedale.i18n import tr
from dedale.span import Span

# A line that may hold dice, or be long enough to hold a big expression, is walked.
_MAYBE_DICE = re.compile(r"[dD]\d")
_WALK_FROM = 2 * limits.MAX_EXPRESSION_TERMS
_TERMS = (ast.And, ast.Or, ast.Not, ast.BinOp, ast.Compare)
_DICE_STAT = re.compile(r"\d*[dD]\d")


def check_lines(
    rules: list[tuple[int, str]], prose: list[tuple[int, str]], file: str, errors: list
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The rule and prose lines within bounds; an error for each line past them."""
    if max((len(line) for _, line in prose), default=0) > limits.MAX_PROSE_LINE:
        prose = _short_prose(prose, file, errors)
    if (
        max((len(line) for _, line in rules), default=0) <= limits.MAX_RULE_LINE
        and max((line.count("(") for _, line in rules), default=0) <= limits.MAX_NESTING
    ):
        return rules, prose
    kept: list[tuple[int, str]] = []
    for number, line in rules:
        if len(line) > limits.MAX_RULE_LINE:
            errors.append(
                BookSyntaxError(
                    tr(
                        "this rule line is too long ({length} characters, at most {limit})",
                        length=len(line),
                        limit=limits.MAX_RULE_LINE,
                    ),
                    Span(file, number, limits.MAX_RULE_LINE + 1),
                    hint=tr(
                        "a choice or a directive fits on one short line; "
                        "split long conditions over several paragraphs"
                    ),
                )  # fmt: skip
            )
            continue
        column = _too_deep(line)
        if column:
            errors.append(
                BookSyntaxError(
                    tr("parentheses nested more than {limit} deep", limit=limits.MAX_NESTING),
                    Span(file, number, column),
                    hint=tr("write the condition with fewer parentheses"),
                )
            )
            continue
        kept.append((number, line))
    return kept, prose


def _short_prose(prose: list[tuple[int, str]], file: str, errors: list) -> list[tuple[int, str]]:
    """The prose lines within bounds (no later step sees the others); an error for each."""
    kept: list[tuple[int, str]] = []
    for number, line in prose:
        if len(line) <= limits.MAX_PROSE_LINE:
            kept.append((number, line))
            continue
        errors.append(
            BookSyntaxError(
                tr(
                    "this line is too long ({length} characters, at most {limit})",
                    length=len(line),
                    limit=limits.MAX_PROSE_LINE,
                ),
                Span(file, number, limits.MAX_PROSE_LINE + 1),
                hint=tr("break the text into several lines"),
            )  # fmt: skip
        )
    return kept


def _too_deep(line: str) -> int:
    """The column of the first ``(`` past ``MAX_NESTING`` open ones, or 0."""
    if line.count("(") <= limits.MAX_NESTING:
        return 0
    depth = 0
    for index, char in enumerate(line):
        if char == "(":
            depth += 1
            if depth > limits.MAX_NESTING:
                return index + 1
        elif char == ")":
            depth = max(0, depth - 1)
    return 0


def check_items(
    items: list[tuple[int, object]], lines: dict[int, str], errors: list[DedaleError]
) -> list[tuple[int, object]]:
    """``items`` unchanged; an error for each one past the bounds (the book will not load)."""
    for number, item in items:
        line = lines.get(number, "")
        if len(line) < _WALK_FROM and not _MAYBE_DICE.search(line):
            continue
        try:
            _check(item, line)
        except DedaleError as error:
            errors.append(error)
    return items


def _check(item: object, line: str) -> None:
    terms = 0
    stack: list[Any] = [item]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(node)
            continue
        if not dataclasses.is_dataclass(node) or isinstance(node, type):
            continue
        if isinstance(node, _TERMS):
            terms += len(node.operands) - 1 if isinstance(node, ast.And | ast.Or) else 1
            if terms > limits.MAX_EXPRESSION_TERMS:
                raise BookSyntaxError(
                    tr("this condition or sum has more than {limit} parts",
                       limit=limits.MAX_EXPRESSION_TERMS),
                    node.span,
                    hint=tr("split it over several choices or paragraphs"),
                )  # fmt: skip
        elif isinstance(node, ast.DiceRoll):
            _dice(node.text, node.span)
        elif isinstance(node, ast.Enemy):
            for _name, value in node.stats:
                if isinstance(value, str) and _DICE_STAT.match(value):
                    _dice(value, _within(line, value, node.span))
        stack.extend(getattr(node, f.name) for f in dataclasses.fields(node))


def _within(line: str, text: str, span: Span) -> Span:
    """The span of ``text`` in ``line`` (searched from ``span``'s column), else ``span``."""
    index = line.lower().find(text.lower(), max(0, span.column - 1))
    if index < 0:
        return span
    return Span(span.file, span.line, index + 1, span.line, index + 1 + len(text))


def _dice(text: str, span: Span) -> None:
    """Refuse, at ``span``, dice that cannot be rolled (see dedale.rules.dice's bounds)."""
    from dedale.rules.dice import parse_dice

    parse_dice(text, span)
