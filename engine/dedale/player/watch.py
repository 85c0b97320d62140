"""Notice edits to a book's files by polling modification times (``--watch``)."""

from __future__ import annotations

from pathlib import Path

WATCHED_SUFFIXES = {".dd", ".yaml", ".yml", ".md", ".txt"}


class BookWatcher:
    """``changed()`` is True once after any watched file under ``root`` changed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._seen = self._snapshot()

    def _snapshot(self) -> dict[Path, int]:
        files = [self.root] if self.root.is_file() else self.root.rglob("*")
        seen: dict[Path, int] = {}
        for path in files:
            if path.suffix in WATCHED_SUFFIXES:
                try:
                    seen[path] = path.stat().st_mtime_ns
                except OSError:
                    continue
        return seen

    def changed(self) -> bool:
        now = self._snapshot()
        if now != self._seen:
            self._seen = now
            return True
        return False
