"""Notice edits to a book's files (``--watch``) through the system's file events.

:class:`BookWatcher` asks watchfiles (the ``watch`` extra) for the events of the book's
folder: ``changed()`` collects what the system reported since the last call, waiting at
most :data:`WAIT_MS` for an event still on its way, so the player's timer can call it
often at no cost (nothing scans the folder). Without watchfiles, or where it cannot watch
(a folder it may not read), it falls back to comparing modification times
(:class:`PollingWatcher`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

WATCHED_SUFFIXES = {".dd", ".yaml", ".yml", ".md", ".txt"}
WAIT_MS = 10
"""Longest ``changed()`` waits for events (the system delivers them within a few ms)."""
DEBOUNCE_MS = 50
"""Events this close together are one change (an editor's save is often several writes)."""


class BookWatcher:
    """``changed()`` is True once after any watched file under ``root`` changed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._events: Iterator[set] | None = None
        self._fallback: PollingWatcher | None = None
        try:
            self._events = _events(root)
        except (ImportError, OSError):
            self._fallback = PollingWatcher(root)

    def changed(self) -> bool:
        if self._events is None:
            return self._fallback.changed() if self._fallback is not None else False
        try:
            batch = next(self._events)
        except (StopIteration, OSError, RuntimeError):
            self._events = None  # the folder went away, or the watcher stopped
            self._fallback = PollingWatcher(self.root)
            return True
        return any(self._watched(Path(path)) for _change, path in batch)

    def _watched(self, path: Path) -> bool:
        if self.root.is_file():
            return path.name == self.root.name
        if path.suffix in WATCHED_SUFFIXES:
            return True
        # A new folder: the files written into it at once may come before the system
        # watches it (inotify adds the folder's watch after its creation event).
        return path.is_dir() and _holds_watched(path)

    def close(self) -> None:
        """Stop watching (the watcher's thread ends with it)."""
        events, self._events = self._events, None
        if events is not None:
            events.close()  # type: ignore[attr-defined]


def _holds_watched(folder: Path, most: int = 2_000) -> bool:
    """Whether ``folder`` holds a watched file (at most ``most`` entries looked at)."""
    try:
        for seen, path in enumerate(folder.rglob("*")):
            if seen >= most:
                return True  # a big new folder: reload rather than miss it
            if path.suffix in WATCHED_SUFFIXES:
                return True
    except OSError:
        return False
    return False


def _events(root: Path) -> Iterator[set]:
    """The generator of watchfiles batches for ``root`` (its folder, for a single file:
    editors save by writing a new file and renaming it over the old one)."""
    import watchfiles

    folder = root.parent if root.is_file() else root
    events = watchfiles.watch(
        folder,
        debounce=DEBOUNCE_MS,
        step=5,
        rust_timeout=WAIT_MS,
        yield_on_timeout=True,
        raise_interrupt=False,
        recursive=not root.is_file(),
    )
    next(events)  # a generator starts watching on its first step: start it now
    return events


class PollingWatcher:
    """The fallback: compares the modification times of the watched files on each call."""

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
