"""A fuzz input: a book as a few files, written into a folder before each run."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

SINGLE_FILE = "book.dd"
"""The file name of a generated single-file book (front matter + paragraphs)."""


@dataclass(slots=True)
class FuzzInput:
    """A book to try: ``files`` maps a path inside the book folder to its bytes.

    A book whose only file is ``book.dd`` is loaded as a single-file book; otherwise the
    folder (with its ``book.yaml``) is loaded.
    """

    files: dict[str, bytes]
    origin: str  # the generator and what it did, e.g. "mutate:greymane:flip,dup"
    seed: int = 0  # the seed of the validator's and the player's random games
    notes: list[str] = field(default_factory=list)

    @property
    def single(self) -> bool:
        return list(self.files) == [SINGLE_FILE]

    def size(self) -> int:
        return sum(len(data) for data in self.files.values())

    def write(self, folder: Path) -> Path:
        """Write the files under ``folder``; return the path to give ``load_book``."""
        for name, data in self.files.items():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return folder / SINGLE_FILE if self.single else folder

    def copy(self, files: dict[str, bytes] | None = None) -> FuzzInput:
        return FuzzInput(dict(self.files if files is None else files), self.origin, self.seed)
