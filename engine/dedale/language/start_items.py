"""book.yaml's starting items (``items:`` / ``objets:``): each entry is written as the
argument of a take line (``Épée (arme, HABILETÉ +1)``, ``2 Torches``, ``Lantern``) and is
parsed by the same grammar rule as ``> take …`` into an ``ast.GainItem`` located in
book.yaml; the interpreter gives them at creation with its own take handler.

In a YAML flow list a comma separates entries, so ``[Épée (arme, HABILETÉ +1)]`` arrives as
two pieces; pieces are joined back while a parenthesis is left open.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass, replace
from typing import Any

from dedale import ast
from dedale.errors import BookLoadError, BookMetadataError, DedaleError
from dedale.i18n import tr
from dedale.span import Span

_PREFIX = "> take "
_HINT = tr(
    "write each item as after `> take` / `> prenez`: `Lantern`, `2 Torches`, "
    "`Sword (weapon, SKILL +1)`"
)


def parse_start_items(
    entries: list[tuple[Any, Span]], errors: list[DedaleError]
) -> tuple[ast.GainItem, ...]:
    """The ``GainItem`` of each entry (its value and where it is written); errors appended."""
    items: list[ast.GainItem] = []
    scalars = []
    for value, span in entries:
        if isinstance(value, str | int) and not isinstance(value, bool):
            scalars.append((value, span))
        else:  # a mapping (`Clé: fer`), a nested list, true/false, an empty entry
            errors.append(
                BookMetadataError(tr("a starting item is one line naming an item"), span, _HINT)
            )
    for text, span in _joined(scalars):
        item = _parse_one(text, span, errors)
        if item is not None:
            items.append(item)
    return tuple(items)


def _joined(entries: list[tuple[Any, Span]]) -> list[tuple[str, Span]]:
    """Entries with the pieces of a flow list split inside parentheses joined back."""
    result: list[tuple[str, Span]] = []
    pending: tuple[str, Span] | None = None
    for value, span in entries:
        text = "" if value is None else str(value)
        if pending is not None:
            text = pending[0] + ", " + text.strip()
            span = pending[1]
            pending = None
        if text.count("(") > text.count(")") and "\n" not in text:
            pending = (text, span)
            continue
        result.append((text, span))
    if pending is not None:
        result.append(pending)  # reported as a missing `)`
    return result


def _parse_one(text: str, span: Span, errors: list[DedaleError]) -> ast.GainItem | None:
    from dedale.language.parser import lark_line_items  # the paragraph parser (lazy: cycle)

    stripped = text.strip()
    if not stripped or "\n" in stripped:
        errors.append(
            BookMetadataError(tr("a starting item is one line naming an item"), span, _HINT)
        )
        return None
    shift = span.column + (len(text) - len(text.lstrip())) - len(_PREFIX) - 1
    try:
        parsed = lark_line_items(_PREFIX + stripped, span.line, span.file)
    except BookLoadError as caught:
        for error in caught.errors:
            where = _moved(error.span, shift) if error.span is not None else span
            errors.append(BookMetadataError(error.message, where, error.hint or _HINT))
        return None
    if len(parsed) != 1 or not isinstance(parsed[0], ast.GainItem):
        errors.append(
            BookMetadataError(
                tr("`{text}` does not read as an item to take", text=stripped), span, _HINT
            )
        )
        return None
    item = _shifted(parsed[0], shift)
    start = span.column + len(text) - len(text.lstrip())
    return replace(item, span=Span(span.file, span.line, start, span.line, start + len(stripped)))


def _moved(span: Span, shift: int) -> Span:
    end = None if span.end_column is None else span.end_column + shift
    return Span(span.file, span.line, span.column + shift, span.end_line, end)


def _shifted(node: Any, shift: int) -> Any:
    """``node`` with every span moved ``shift`` columns (from the take line to book.yaml)."""
    if isinstance(node, Span):
        return _moved(node, shift)
    if isinstance(node, tuple):
        return tuple(_shifted(item, shift) for item in node)
    if is_dataclass(node) and not isinstance(node, type):
        changes = {f.name: _shifted(getattr(node, f.name), shift) for f in fields(node)}
        return replace(node, **changes)
    return node
