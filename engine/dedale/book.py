"""The Book: a loaded book's metadata, paragraphs, labels and ruleset (immutable).

Built by ``dedale.language.load_book``; the interpreter, the player and the validator
read it and never change it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dedale import ast

if TYPE_CHECKING:  # dedale.language imports this module: no import cycle at run time
    from dedale.language.metadata import BookMeta


@dataclass(frozen=True)
class Book:
    """A loaded book. ``paragraphs`` keeps the order of the files."""

    meta: BookMeta
    paragraphs: Mapping[int, ast.Paragraph]
    labels: Mapping[str, int]
    ruleset: Any
    root: Path
    files: list[Path]
    fingerprint: str
    _label_index: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)

    @property
    def start(self) -> int:
        """The number of the first paragraph to read."""
        return self.meta.start

    @property
    def title(self) -> str:
        return self.meta.title

    def resolve(self, dest: ast.ParagraphRef) -> int | None:
        """The paragraph number a reference leads to (None if there is no such paragraph)."""
        if dest.number is not None:
            return dest.number if dest.number in self.paragraphs else None
        if dest.label is None:
            return None
        return self.label_number(dest.label)

    def label_number(self, label: str) -> int | None:
        """The number of the paragraph with this label (case/accent/space-insensitive)."""
        from dedale.language.keywords import name_key

        return self._label_index.get(name_key(label))

    def stat_id(self, name: str) -> str | None:
        """The ruleset id of a stat or counter as written in the book (``endurance``)."""
        found = self.ruleset.resolve(name) if self.ruleset is not None else None
        if found and found[0] in ("stat", "counter"):
            return found[1]
        return None

    def kind_of(self, name: str) -> str | None:
        """``stat``, ``counter``, ``item`` or ``test`` for a name the ruleset knows."""
        found = self.ruleset.resolve(name) if self.ruleset is not None else None
        return found[0] if found else None
