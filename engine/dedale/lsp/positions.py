"""Positions between the book's files (code points) and the client (its encoding)."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types
from pygls.uris import from_fs_path, to_fs_path

from dedale.lsp.index import Place


def path_of(uri: str) -> Path | None:
    """The resolved file path of a ``file:`` URI (None for other schemes)."""
    try:
        found = to_fs_path(uri)
        return Path(found).resolve() if found else None
    except (OSError, ValueError, RuntimeError):
        return None


def uri_of(path: Path | str) -> str:
    return from_fs_path(str(path)) or f"file://{path}"


class Positions:
    """Converts with the codec the client and the server agreed on."""

    def __init__(self, codec: object, lines_of) -> None:  # noqa: ANN001 - path -> lines
        self.codec = codec
        self.lines_of = lines_of

    def range(self, place: Place) -> types.Range:
        return self.line_range(place.path, place.line, place.start, place.end)

    def line_range(self, path: Path, line: int, start: int, end: int) -> types.Range:
        lines = self.lines_of(path)
        return types.Range(self.point(lines, line, start), self.point(lines, line, end))

    def location(self, place: Place) -> types.Location:
        return types.Location(uri_of(place.path), self.range(place))

    def point(self, lines: list[str], line: int, column: int) -> types.Position:
        """A (line, code point column) of ``lines`` in the client's units."""
        if not 0 <= line < len(lines):
            return types.Position(max(line, 0), max(column, 0))
        return self.codec.position_to_client_units(lines, types.Position(line, column))

    def inward(self, path: Path, position: types.Position) -> tuple[int, int]:
        """(line, code point column) of a client position."""
        lines = self.lines_of(path)
        if not lines or position.line >= len(lines):
            return position.line, position.character
        found = self.codec.position_from_client_units(lines, position)
        return found.line, found.character
