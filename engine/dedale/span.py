"""Source positions: every AST node and every author-facing error carries a Span."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Span:
    """A region of an author's file. Lines and columns are 1-based."""

    file: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    @classmethod
    def unknown(cls, file: str = "<unknown>") -> Span:
        """A span for data that has no better position (e.g. command-line values)."""
        return cls(file, 1, 1)
