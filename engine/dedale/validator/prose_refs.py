"""E010 for a marked reference in prose (``{§ 12}``) that names no paragraph.

A marked reference is not a way on (the reader turns there only if a choice says so), so
it is no edge of the graph; it must still name a paragraph, or the printed book would send
the reader nowhere once renumbered.
"""

from __future__ import annotations

from collections.abc import Iterator

from dedale import ast
from dedale.i18n import tr
from dedale.language.prose_refs import prose_refs
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import walk


def prose_ref_findings(book: object) -> Iterator[Finding]:
    """One E010 per ``{§ …}`` whose number or label names no paragraph of the book."""
    paragraphs = getattr(book, "paragraphs", None) or {}
    for number, paragraph in paragraphs.items():
        for stmt in walk(paragraph.body):
            if not isinstance(stmt, ast.Prose):
                continue
            for written, reference, span in prose_refs(stmt):
                if reference is None:
                    continue  # a load error already
                target = book.resolve(reference)  # type: ignore[attr-defined]
                if target is not None:
                    continue
                yield finding(
                    "E010",
                    tr(
                        "the text's reference {written} names no paragraph",
                        written=written,
                    ),
                    span,
                    paragraph=number,
                    hint=tr("write that paragraph, or fix the number"),
                )
