"""Go to definition, find references, rename, the paragraph outline."""

from __future__ import annotations

import re
from pathlib import Path

from dedale.i18n import tr
from dedale.language.keywords import fold
from dedale.language.meta_keys import norm
from dedale.lsp.index import BookIndex, Heading, Place, Reference

_START = re.compile(r"^(start|depart|debut|paragraphe[-_ ]de[-_ ]depart)[ \t]*:[ \t]*(\d+)\b", re.I)
_KEY = re.compile(r"^([ \t]*)(-[ \t]+)?([^:#\[\]{}]+?)[ \t]*:[ \t]*(.*)$")
_HIDDEN_KEYS = frozenset(("hidden", "caches", "paragraphes-caches"))
_NUMBER = re.compile(r"\d+")
_ITEM = re.compile(r"^([ \t]*)-[ \t]*(\d+)[ \t]*(#.*)?$")
_LABEL = re.compile(r"^[^\W\d][\w'’-]{0,79}$")
MAX_NUMBER = 10**6


class RenameRefused(ValueError):
    """The new name cannot be used (its message says why, for the editor)."""


def target_of(index: BookIndex, found: Reference | Heading | None) -> int | None:
    """The paragraph number a reference or a header stands for."""
    if isinstance(found, Reference):
        return index.target(found)
    if isinstance(found, Heading):
        return found.number
    return None


def definition(index: BookIndex, found: Reference | Heading | None) -> Place | None:
    number = target_of(index, found)
    heading = index.heading(number) if number is not None else None
    return heading.number_at if heading is not None else None


def references(index: BookIndex, number: int, declaration: bool) -> list[Place]:
    places = [ref.at for ref in index.references_to(number)]
    heading = index.heading(number)
    if declaration and heading is not None:
        places.insert(0, heading.number_at)
    return places


def rename(
    index: BookIndex,
    found: Reference | Heading | None,
    line: int,
    column: int,
    new: str,
    meta: tuple[Path, list[str]] | None = None,
) -> dict[Path, list[tuple[Place, str]]]:
    """The edits, file by file, that rename the paragraph number or label at the cursor
    (``meta``: book.yaml's path and lines, whose ``start:`` and ``hidden:`` list follow a
    renumbered paragraph)."""
    number = target_of(index, found)
    heading = index.heading(number) if number is not None else None
    if heading is None:
        raise RenameRefused(tr("no paragraph to rename here"))
    new = new.strip()
    on_label = (isinstance(found, Reference) and found.number is None) or (
        isinstance(found, Heading)
        and found.label_at is not None
        and found.label_at.start <= column <= found.label_at.end
        and found.label_at.line == line
    )
    edits: list[tuple[Place, str]] = []
    if on_label:
        if not _LABEL.match(new):
            raise RenameRefused(tr("a label is one word that does not start with a digit"))
        if index.number_of(new) not in (None, heading.number):
            raise RenameRefused(tr("the label `{label}` already names a paragraph", label=new))
        if heading.label_at is not None:
            edits.append((heading.label_at, new))
        edits += [
            (ref.at, new) for ref in index.references_to(heading.number) if ref.number is None
        ]
    else:
        if not new.isdigit() or not 0 < int(new) < MAX_NUMBER:
            raise RenameRefused(tr("a paragraph number is a whole number such as 12"))
        if int(new) != heading.number and index.heading(int(new)) is not None:
            raise RenameRefused(tr("paragraph {number} already exists", number=int(new)))
        edits.append((heading.number_at, str(int(new))))
        edits += [
            (ref.at, str(int(new)))
            for ref in index.references_to(heading.number)
            if ref.number is not None
        ]
        if meta is not None:
            start = _start_value(meta, heading.number)
            places = ([start] if start is not None else []) + _hidden_values(meta, heading.number)
            edits += [(place, str(int(new))) for place in places]
    by_file: dict[Path, list[tuple[Place, str]]] = {}
    for place, text in edits:
        by_file.setdefault(place.path, []).append((place, text))
    return by_file


def _start_value(meta: tuple[Path, list[str]], number: int) -> Place | None:
    """Where book.yaml's ``start:`` writes ``number``, if it does."""
    path, lines = meta
    for position, text in enumerate(lines[:1_000]):
        found = _START.match(fold(text))
        if found and int(found.group(2)) == number:
            return Place(path, position, found.start(2), found.end(2))
    return None


def _hidden_values(meta: tuple[Path, list[str]], number: int) -> list[Place]:
    """Where book.yaml's ``hidden:`` list (``validator: hidden:``, ``cachés:``, or at the top
    level) writes ``number``: in a flow list ``[217, 312]`` or as block items ``- 217``."""
    path, lines = meta
    places: list[Place] = []
    block_indent: int | None = None  # inside a block list under a hidden key
    for position, text in enumerate(lines[:5_000]):
        item = _ITEM.match(text)
        if block_indent is not None:
            if item and len(item.group(1)) >= block_indent:
                if int(item.group(2)) == number:
                    places.append(Place(path, position, item.start(2), item.end(2)))
                continue
            if text.strip() and not text.lstrip().startswith("#"):
                block_indent = None
        key = _KEY.match(text)
        if key is None or norm(key.group(3)) not in _HIDDEN_KEYS:
            continue
        value, at = key.group(4), key.start(4)
        if not value.strip() or value.lstrip().startswith("#"):
            block_indent = len(key.group(1)) + (len(key.group(2)) if key.group(2) else 0)
            continue
        flow = value.split("#", 1)[0]
        for found in _NUMBER.finditer(flow):
            if int(found.group()) == number:
                places.append(Place(path, position, at + found.start(), at + found.end()))
    return places


def outline(index: BookIndex, path: Path) -> list[Heading]:
    """The paragraphs of one file, in order."""
    file_index = index.files.get(path)
    return list(file_index.headings) if file_index else []
