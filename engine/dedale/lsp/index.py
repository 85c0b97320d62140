"""An index of a book's paragraphs, the references to them and the names it uses.

Built from each file parsed on its own (:func:`dedale.language.parser.parse_collecting`), so
that it is there even when the book as a whole does not load (a missing paragraph, a bad
ruleset): navigation keeps working while the author fixes what the diagnostics show.
Positions are 0-based (line, column) as LSP counts them (columns in code points: the
server announces UTF-32 positions when the client offers them).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from dedale import ast
from dedale.language.keywords import name_key
from dedale.language.parser import parse_collecting
from dedale.language.prose_refs import prose_refs
from dedale.lsp.walk import nodes

_HEADER = re.compile(r"^([ \t]*(?:§|#)[ \t]*)(\d+)[ \t]*(.*?)[ \t]*$")
FIRST_LINES = 4
"""How many lines of a paragraph a hover shows."""


@dataclass(frozen=True, slots=True)
class Place:
    """A range of one line of a file (0-based line, columns ``start``..``end``)."""

    path: Path
    line: int
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Heading:
    """A paragraph header: its number, label, and where each is written."""

    number: int
    label: str | None
    number_at: Place
    label_at: Place | None
    last_line: int  # the paragraph's last line (0-based), for the outline's ranges
    first_lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reference:
    """A reference to a paragraph (``-> 12``, ``-> cellar``, an answer, ``visited 6``)."""

    at: Place
    number: int | None
    label: str | None
    paragraph: int | None  # the paragraph it is written in


@dataclass(slots=True)
class FileIndex:
    """What one file holds."""

    headings: list[Heading] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    names: dict[str, set[str]] = field(default_factory=dict)
    fights: list[tuple[int, ast.Fight]] = field(default_factory=list)


def index_file(path: Path, text: str) -> FileIndex:
    """Index one paragraph file (never raises on a malformed text)."""
    lines = text.split("\n")
    result = FileIndex()
    try:
        parsed, _errors = parse_collecting(text, str(path))
    except Exception:  # noqa: BLE001 - a parser bug must not take the server down
        return result
    paragraphs = list(parsed.paragraphs)
    for position, paragraph in enumerate(paragraphs):
        line = paragraph.span.line - 1
        following = (
            paragraphs[position + 1].span.line - 2
            if position + 1 < len(paragraphs)
            else len(lines) - 1
        )
        heading = _heading(path, lines, line, paragraph, max(line, following))
        if heading is not None:
            result.headings.append(heading)
        for node in nodes(paragraph.body):
            _note(result, path, node, paragraph.number)
    return result


def _heading(
    path: Path, lines: list[str], line: int, paragraph: ast.Paragraph, last: int
) -> Heading | None:
    if not 0 <= line < len(lines):
        return None
    found = _HEADER.match(lines[line])
    if found is None:
        return None
    number_at = Place(path, line, found.start(2), found.end(2))
    label_at = None
    if paragraph.label and found.group(3):
        start = found.start(3)
        label_at = Place(path, line, start, start + len(found.group(3)))
    body = []
    for text in lines[line + 1 : last + 1]:
        stripped = text.strip()
        if stripped and not stripped.startswith(("//", ">", "->", "→")):
            body.append(stripped)
        if len(body) >= FIRST_LINES:
            break
    return Heading(paragraph.number, paragraph.label, number_at, label_at, last, tuple(body))


_NAME_FIELDS: dict[type, tuple[str, str]] = {
    ast.GainItem: ("item", "item"),
    ast.LoseItem: ("item", "item"),
    ast.HasItem: ("item", "item"),
    ast.ItemNumber: ("item", "item"),
    ast.SetCodeword: ("codeword", "codeword"),
    ast.ClearCodeword: ("codeword", "codeword"),
    ast.HasCodeword: ("codeword", "codeword"),
    ast.ChangeValue: ("stat", "name"),
    ast.ValueRef: ("stat", "name"),
    ast.Penalty: ("stat", "stat"),
    ast.Enemy: ("enemy", "name"),
}


def _note(result: FileIndex, path: Path, node: object, here: int) -> None:
    if isinstance(node, ast.ParagraphRef):
        span = node.span
        end = span.end_column if span.end_line in (None, span.line) and span.end_column else None
        written = str(node.number) if node.number is not None else (node.label or "")
        start = span.column - 1
        place = Place(path, span.line - 1, start, end - 1 if end else start + len(written))
        result.references.append(Reference(place, node.number, node.label, here))
        return
    if isinstance(node, ast.Prose):  # {§ 12} in the text: a reference too
        result.references.extend(prose_references(path, node, here))
        return
    if isinstance(node, ast.Fight):
        result.fights.append((here, node))
    kind = _NAME_FIELDS.get(type(node))
    if kind is not None:
        value = getattr(node, kind[1], None)
        if isinstance(value, str) and value:
            result.names.setdefault(kind[0], set()).add(value)


def prose_references(path: Path, prose: ast.Prose, here: int) -> list[Reference]:
    """The marked references of a prose block, placed on their number or label."""
    found = []
    for written, ref, span in prose_refs(prose):
        if ref is None:
            continue
        name = str(ref.number) if ref.number is not None else (ref.label or "")
        start = span.column - 1 + written.index(name, 2)
        place = Place(path, span.line - 1, start, start + len(name))
        found.append(Reference(place, ref.number, ref.label, here))
    return found


@dataclass(slots=True)
class BookIndex:
    """The index of every file of a book."""

    files: dict[Path, FileIndex] = field(default_factory=dict)

    def headings(self) -> list[Heading]:
        return [heading for index in self.files.values() for heading in index.headings]

    def heading(self, number: int) -> Heading | None:
        for heading in self.headings():
            if heading.number == number:
                return heading
        return None

    def number_of(self, label: str) -> int | None:
        """The paragraph a label names (accents, case and spacing folded)."""
        key = name_key(label)
        for heading in self.headings():
            if heading.label and name_key(heading.label) == key:
                return heading.number
        return None

    def target(self, reference: Reference) -> int | None:
        if reference.number is not None:
            return reference.number
        return self.number_of(reference.label) if reference.label else None

    def references(self) -> list[Reference]:
        return [ref for index in self.files.values() for ref in index.references]

    def references_to(self, number: int) -> list[Reference]:
        return [ref for ref in self.references() if self.target(ref) == number]

    def names(self, kind: str) -> set[str]:
        found: set[str] = set()
        for index in self.files.values():
            found |= index.names.get(kind, set())
        return found

    def at(self, path: Path, line: int, column: int) -> Reference | Heading | None:
        """The reference or header number/label under (line, column) of ``path``."""
        index = self.files.get(path)
        if index is None:
            return None
        for ref in index.references:
            if _covers(ref.at, line, column):
                return ref
        for heading in index.headings:
            if _covers(heading.number_at, line, column) or (
                heading.label_at is not None and _covers(heading.label_at, line, column)
            ):
                return heading
        return None

    def paragraph_at(self, path: Path, line: int) -> Heading | None:
        """The paragraph whose lines hold ``line`` of ``path``."""
        index = self.files.get(path)
        for heading in index.headings if index else ():
            if heading.number_at.line <= line <= heading.last_line:
                return heading
        return None


def _covers(place: Place, line: int, column: int) -> bool:
    return place.line == line and place.start <= column <= place.end
