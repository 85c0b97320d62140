"""Prose that reads like a forgotten rule line (issue 12.7): W061 and W062.

The language module finds the lines (:func:`dedale.language.suspicious_prose`); this module
turns them into findings at their line.
"""

from __future__ import annotations

import dataclasses

from dedale.i18n import tr
from dedale.language.suspicious import suspicious_prose
from dedale.validator.findings import Finding, finding

_CODES = {"rule-as-prose": "W061", "destination-in-prose": "W062", "options-after-text": "W064"}


def prose_findings(book: object) -> list[Finding]:
    """One warning per prose line that looks like a rule, or names a way on that the
    paragraph does not have."""
    found = []
    for suspicion in suspicious_prose(book):
        paragraph = _paragraph_at(book, suspicion.span)
        found.append(
            finding(
                _CODES[suspicion.kind],
                suspicion.message,
                suspicion.span,
                paragraph=paragraph,
                hint=suspicion.hint,
            )
        )
    return found


def _paragraph_at(book: object, span) -> int | None:
    """The number of the paragraph whose text holds ``span``."""
    best = None
    for number, paragraph in (getattr(book, "paragraphs", None) or {}).items():
        where = paragraph.span
        if where.file == span.file and where.line <= span.line:
            if best is None or where.line > best[0]:
                best = (where.line, number)
    return best[1] if best else None


def explain_dead_ends(found: list[Finding]) -> list[Finding]:
    """Fold each W062 into the E014 dead end of its paragraph, as that finding's hint."""
    prose = {item.paragraph: item for item in found if item.code == "W062"}
    if not prose:
        return found
    dead = {item.paragraph for item in found if item.code == "E014"}
    kept = []
    for item in found:
        if item.code == "W062" and item.paragraph in dead:
            continue
        if item.code == "E014" and item.paragraph in prose:
            cause = prose[item.paragraph]
            hint = tr(
                "line {line}: {message}; {hint}",
                line=cause.span.line,
                message=cause.message,
                hint=cause.hint,
            )
            item = dataclasses.replace(item, hint=hint)
        kept.append(item)
    return kept
