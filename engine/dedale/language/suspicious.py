"""Prose that was probably meant as a rule (issue 12.7), for the validator to report.

A rule line without its ``>`` (``tentez votre habileté``) silently becomes prose; so does
"Rendez-vous au 9." written as text in a paragraph that has no way on. Neither is certain
to be a mistake (a book may say "Combat" as a title), so they are warnings the validator
reports, not load errors: :func:`suspicious_prose` returns them with their place.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from dedale import ast
from dedale.errors import BookLoadError
from dedale.i18n import Message, tr
from dedale.language.checks import walk
from dedale.language.keywords import DIRECTIVE_WORDS, fold
from dedale.span import Span

_MAX_LINE = 120  # longer prose lines are sentences, not forgotten rule lines
_FIRST_WORDS = frozenset(fold(word.split()[0]).lower() for word in DIRECTIVE_WORDS) | {
    "tentez", "testez", "combattez", "prenez", "perdez", "gagnez", "notez", "ennemi",
}  # fmt: skip
_FIRST = re.compile(r"[^\W\d][\w'-]*|\d")
_FIRST_SPAN = 1 + max(map(len, _FIRST_WORDS))
"""The start of a line that decides its first word: a longer word is no word of
_FIRST_WORDS, cut or not (fold keeps the length: only this much is folded)."""
_TURN_TO = re.compile(
    r"(?:rendez[- ]vous|allez|retournez|turn|go|return)\s+(?:au|a|to)\s+"
    r"(?:(?:paragraphe|paragraph|section)\s+|\{?§\s*)?(\d{1,6})\b",  # {§ 9}: a marked number
    re.IGNORECASE,
)
_WAYS_ON = (ast.Choice, ast.Goto, ast.Ending, ast.HiddenNumber, ast.ParagraphRef, ast.ComputedRef)


@dataclass(frozen=True, slots=True)
class Suspicion:
    """A prose line that looks like a rule: where, what, and what to write instead."""

    span: Span
    message: Message
    hint: Message
    kind: str  # "rule-as-prose", "destination-in-prose" or "options-after-text"


def suspicious_prose(book: Any) -> list[Suspicion]:
    """Every prose line of ``book`` that reads like a rule line without its ``>``, and
    every "turn to N" in the text of a paragraph with no way on, in reading order."""
    found: list[Suspicion] = []
    for paragraph in (getattr(book, "paragraphs", None) or {}).values():
        found.extend(paragraph_suspicions(paragraph))
    return sorted(found, key=lambda s: (s.span.file, s.span.line, s.span.column))


def paragraph_suspicions(paragraph: ast.Paragraph) -> list[Suspicion]:
    """The suspicions of one paragraph."""
    found: list[Suspicion] = []
    way_on = False
    for node in walk(paragraph):
        way_on = way_on or isinstance(node, _WAYS_ON)
        if isinstance(node, ast.Choice) and node.text.endswith(")"):
            options = _options_after_text(node)
            if options is not None:
                found.append(options)
    for file, number, column, line in _raw_lines(paragraph.body):
        # the Span is made only for a line that may be reported (most are plain text)
        span = (
            Span(file, number, column, number, column + len(line)) if _may_be_rule(line) else None
        )
        rule = None if span is None else _as_rule(line, span)
        if rule is not None:
            found.append(rule)
        elif not way_on:
            match = _TURN_TO.search(fold(line))
            if match is not None:
                if span is None:
                    span = Span(file, number, column, number, column + len(line))
                number = match.group(1)
                start = span.column + match.start()
                where = Span(span.file, span.line, start, span.line, span.column + match.end())
                found.append(
                    Suspicion(
                        where,
                        tr(
                            "the text sends the reader to {number}, but this paragraph has no "
                            "way on",
                            number=number,
                        ),
                        tr(
                            "text is only shown: add the rule line `> go to {number}` / "
                            "`> rendez-vous au {number}`, or a choice `-> {number}`",
                            number=number,
                        ),
                        "destination-in-prose",
                    )
                )
    return found


_TRAILING_OPTIONS = re.compile(r"\(([^()]+)\)\s*$")


def _options_after_text(choice: ast.Choice) -> Suspicion | None:
    """A Suspicion when the choice's text ends with ``(…)`` that would be the choice's
    options (a condition, a cost, an effect, ``grisé``) before it: there it is only text."""
    match = _TRAILING_OPTIONS.search(choice.text)
    if match is None:
        return None
    from dedale.language.parser import lark_line_items  # lazy: the parser imports this package

    options = match.group(1).strip()
    try:
        items = lark_line_items(f"-> 1 ({options}) x", 1, choice.span.file)
    except BookLoadError:
        return None
    parsed = items[0] if items and isinstance(items[0], ast.Choice) else None
    if parsed is None or not (
        parsed.condition or parsed.costs or parsed.effects or parsed.revisit
        or parsed.display != "hidden"
    ):  # fmt: skip
        return None
    target = choice.target
    number = target.number if isinstance(target, ast.ParagraphRef) and target.number else "N"
    text = choice.text[: match.start()].rstrip()
    return Suspicion(
        choice.span,
        tr(
            "the choice's text ends with `({options})`: written after the text, it is shown as "
            "text, not read as the choice's options",
            options=options,
        ),
        tr(
            "options go between the paragraph and the text: `-> {number} ({options}) {text}`",
            number=number,
            options=options,
            text=text,
        ),
        "options-after-text",
    )


def _prose_lines(body: Iterable[ast.Statement]) -> Iterable[tuple[Span, str]]:
    for file, number, column, stripped in _raw_lines(body):
        yield Span(file, number, column, number, column + len(stripped)), stripped


def _raw_lines(body: Iterable[ast.Statement]) -> Iterable[tuple[str, int, int, str]]:
    """The non-blank prose lines of ``body``: file, line number, column, text stripped."""
    for statement in body:
        if not isinstance(statement, ast.Prose):
            continue
        for offset, line in enumerate(statement.text.split("\n")):
            stripped = line.strip()
            if not stripped:
                continue
            column = 1 + len(line) - len(line.lstrip())
            yield statement.span.file, statement.span.line + offset, column, stripped


def rule_in_prose(prose: ast.Prose) -> tuple[Span, str] | None:
    """The last line of ``prose`` that reads like a rule line without its ``>``."""
    found = None
    for span, line in _prose_lines((prose,)):
        if _as_rule(line, span) is not None:
            found = (span, line)
    return found


def _may_be_rule(line: str) -> bool:
    """Whether ``line`` is short and starts as a rule line does (before parsing it)."""
    if len(line) > _MAX_LINE:
        return False
    first = _FIRST.match(fold(line[:_FIRST_SPAN]))
    return first is not None and (first.group(0).lower() in _FIRST_WORDS or line[0].isdigit())


def _as_rule(line: str, span: Span) -> Suspicion | None:
    """A Suspicion when ``line`` with a ``>`` before it parses as a directive."""
    if not _may_be_rule(line):
        return None
    from dedale.language.parser import lark_line_items  # lazy: the parser imports this package

    try:
        items = lark_line_items("> " + line, 1, span.file)
    except BookLoadError:
        return None
    if not items or (" " not in line and not isinstance(items[0], ast.Ending)):
        return None  # a lone "Combat" is a title more often than a fight without enemies
    return Suspicion(
        span,
        tr("this text line reads like a rule: `{line}`", line=line),
        tr(
            "rule lines start with `>`: write `> {line}`; if it is meant as text, reword it",
            line=line,
        ),
        "rule-as-prose",
    )
