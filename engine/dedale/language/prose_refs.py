"""Marked references in prose: ``{§ 12}`` ("turn to 12" written inside the text).

Both players show the paragraph's number; the export prints it as a reference it renumbers
with the book (so that a shuffled book still says the right number); the loader and the
validator check it names a paragraph. A label may stand for the number (``{§ cellar}``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from dedale import ast
from dedale.span import Span

_REF = re.compile(r"§[ \t]*(?:(\d{1,6})|([^\W\d][\w'’-]{0,59}))", re.UNICODE)
_PLACEHOLDER = re.compile(r"(?<!\{)\{([^{}\n]{1,60})\}")


def parse_prose_ref(inside: str, span: Span | None = None) -> ast.ParagraphRef | None:
    """The reference a placeholder's inside (``§ 12``, ``§ cellar``) names, else None."""
    found = _REF.fullmatch(inside.strip())
    if found is None:
        return None
    where = span or Span("", 1, 1)
    if found.group(1) is not None:
        return ast.ParagraphRef(span=where, number=int(found.group(1)))
    return ast.ParagraphRef(span=where, label=found.group(2))


def is_prose_ref(inside: str) -> bool:
    """Whether a placeholder's inside starts a marked reference (``§ …``)."""
    return inside.strip().startswith("§")


def prose_refs(prose: ast.Prose) -> Iterator[tuple[str, ast.ParagraphRef | None, Span]]:
    """Each ``{§ …}`` of a prose block: its text, the reference (None: malformed) and where
    it stands (line and column counted from the block's span)."""
    text = prose.text
    if "§" not in text:
        return
    guarded = text.replace("{{", "\x00\x00").replace("}}", "\x01\x01")
    for found in _PLACEHOLDER.finditer(guarded):
        inside = found.group(1)
        if not is_prose_ref(inside):
            continue
        before = text[: found.start()]
        line = prose.span.line + before.count("\n")
        column = found.start() - (before.rfind("\n") + 1) + 1
        if "\n" not in before:
            column += prose.span.column - 1
        span = Span(prose.span.file, line, column)
        yield found.group(0), parse_prose_ref(inside, span), span
