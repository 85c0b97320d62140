"""Every error Dédale reports to a person.

Hierarchy::

    DedaleError                      base; carries an optional Span and a hint
    ├── BookError                    something wrong in an author's book
    │   ├── BookSyntaxError          the paragraph text does not parse
    │   ├── BookStructureError       parses, but is inconsistent (duplicate paragraph, ...)
    │   └── BookMetadataError        book.yaml is malformed or has a bad value
    ├── RulesetError                 a ruleset YAML is malformed or inconsistent
    ├── DiceExpressionError          a dice expression ("2d6+SKILL") does not parse
    ├── SaveError                    a save file cannot be used (see dedale.saves)
    ├── GameError                    the interpreter met something it cannot run
    └── UsageError                   bad command-line arguments (exit code 2)

``BookLoadError`` groups several errors found in one pass by the loader.
``render(lang=…)`` gives the author-facing text: ``file:line:col: message``, the source line,
a caret under the spot, and the hint, in the author's language when the message and hint are
translatable (``dedale.i18n.tr``); ``lang`` defaults to the error's ``lang`` attribute, which
a command sets when it knows the book's language.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dedale.i18n import ntr, tr, translate
from dedale.span import Span


class DedaleError(Exception):
    """Base of every error Dédale reports; never shown as a traceback."""

    lang: str | None = None  # the language render() speaks by default (None: English)

    def __init__(self, message: str, span: Span | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        return f"{where}{self.message}"

    def located(self, lang: str | None = None) -> str:
        """``file:line:col: message`` in ``lang``."""
        where = f"{self.span}: " if self.span else ""
        return f"{where}{translate(self.message, lang)}"

    def render(self, source_line: str | None = None, lang: str | None = None) -> str:
        """Render as ``file:line:col: message`` + source line + caret + hint, in ``lang``."""
        lang = lang or self.lang
        parts = [self.located(lang)]
        if source_line is None and self.span is not None:
            source_line = read_source_line(self.span)
        if source_line is not None and self.span is not None:
            line = source_line.rstrip("\n").expandtabs(4)
            parts.append(f"    {line}")
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column:
                width = max(1, self.span.end_column - self.span.column)
            parts.append("    " + " " * (self.span.column - 1) + "^" * width)
        if self.hint:
            parts.append("  " + tr("hint: {hint}", hint=self.hint).translate(lang))
        return "\n".join(parts)


class BookError(DedaleError):
    """Something wrong in an author's book."""


class BookSyntaxError(BookError):
    """The paragraph text does not parse."""


class BookStructureError(BookError):
    """The book parses but is inconsistent (duplicate paragraph, missing start, ...)."""


class BookMetadataError(BookError):
    """book.yaml (or a front matter) is malformed or holds a bad value."""


class RulesetError(DedaleError):
    """A ruleset YAML file is malformed or inconsistent."""


class DiceExpressionError(DedaleError):
    """A dice expression does not parse or names an unknown value."""


class SaveError(DedaleError):
    """A save file cannot be used; the message says why."""


class GameError(DedaleError):
    """The interpreter met a construct it cannot run in the current state."""


class UsageError(DedaleError):
    """Bad command-line arguments."""


class BookLoadError(BookError):
    """Several errors found in one loading pass."""

    def __init__(self, errors: Sequence[DedaleError]):
        self.errors = list(errors)
        first = self.errors[0] if self.errors else None
        count = len(self.errors)
        super().__init__(
            ntr("{count} error in the book", "{count} errors in the book", count),
            first.span if first else None,
        )

    def render(self, source_line: str | None = None, lang: str | None = None) -> str:
        lang = lang or self.lang
        return "\n\n".join(e.render(lang=lang) for e in self.errors)


def read_source_line(span: Span) -> str | None:
    """The text of the span's line, or None if the file cannot be read."""
    try:
        with open(span.file, encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, start=1):
                if number == span.line:
                    return line
    except OSError:
        return None
    return None


def render_all(errors: Iterable[DedaleError], lang: str | None = None) -> str:
    """Render several errors, separated by blank lines."""
    return "\n\n".join(e.render(lang=lang) for e in errors)
