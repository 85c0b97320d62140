"""Which book an edited file belongs to, and the files of that book.

A ``.dd`` file or a book.yaml belongs to the nearest folder above it (at most
:data:`MAX_UP` levels) that holds a book.yaml; a ``.dd`` file with no such folder is a
single-file book when it starts with a ``---`` front matter.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

from dedale import limits
from dedale.language.loader import EXTENSION, META_FILE

MAX_UP = 8
"""How many folders up a file's book.yaml is looked for."""


@dataclass(frozen=True, slots=True)
class BookPlace:
    """A book on disk: ``root`` (its folder, or its single file) and whether it is a folder."""

    root: Path
    folder: bool

    def files(self, open_paths: set[Path] = frozenset()) -> list[Path]:
        """The book's ``.dd`` files and its book.yaml (bounded), with the open ones inside it."""
        if not self.folder:
            return [self.root]
        found: list[Path] = []
        try:
            listed = itertools.islice(self.root.rglob(f"*{EXTENSION}"), limits.MAX_FILES + 1)
            found = sorted(path.resolve() for path in listed if path.is_file())
        except OSError:
            found = []
        meta = self.root / META_FILE
        names = set(found)
        extra = [path for path in open_paths if self.holds(path) and path not in names]
        return [meta, *found, *sorted(extra)]

    def holds(self, path: Path) -> bool:
        """Whether ``path`` is one of this book's files."""
        if not self.folder:
            return path == self.root
        return path.suffix == EXTENSION and path.is_relative_to(self.root)


def find_book(path: Path, text: str | None = None) -> BookPlace | None:
    """The book ``path`` (a resolved file path) belongs to; None when it belongs to none."""
    folder = path.parent
    for _ in range(MAX_UP):
        try:
            if (folder / META_FILE).is_file():
                return BookPlace(folder, True)
        except OSError:
            return None
        if folder.parent == folder:
            break
        folder = folder.parent
    if path.suffix == EXTENSION:
        head = text if text is not None else _head(path)
        if head.lstrip("\ufeff").startswith("---"):
            return BookPlace(path, False)
    return None


def _head(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read(16).decode("utf-8", "replace")
    except OSError:
        return ""
