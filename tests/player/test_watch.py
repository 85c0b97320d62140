"""``--watch``: the book watcher reports edits from the system's file events (watchfiles),
and falls back to modification times without it."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from dedale.player.watch import BookWatcher


def _changed_soon(watcher: BookWatcher, seconds: float = 3.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if watcher.changed():
            return True
    return False


def test_an_edit_is_seen_once_and_other_files_are_not(tmp_path: Path) -> None:
    (tmp_path / "book.yaml").write_text("title: T\n")
    (tmp_path / "01.dd").write_text("§ 1\n")
    watcher = BookWatcher(tmp_path)
    try:
        assert watcher._events is not None  # watchfiles, not polling
        assert not watcher.changed()
        (tmp_path / "01.dd").write_text("§ 1\n> victory\n")
        assert _changed_soon(watcher)
        assert not watcher.changed()
        (tmp_path / "cover.png").write_bytes(b"\x89PNG")
        assert not _changed_soon(watcher, 0.3)
        (tmp_path / "part").mkdir()
        (tmp_path / "part" / "02.dd").write_text("§ 2\n")
        assert _changed_soon(watcher)
    finally:
        watcher.close()


def test_a_single_file_book_saved_by_rename(tmp_path: Path) -> None:
    book = tmp_path / "short.dd"
    book.write_text("---\ntitle: S\n---\n§ 1\n")
    (tmp_path / "other.dd").write_text("§ 1\n")
    watcher = BookWatcher(book)
    try:
        (tmp_path / "other.dd").write_text("§ 2\n")
        assert not _changed_soon(watcher, 0.3)
        fresh = tmp_path / ".short.dd.swp"
        fresh.write_text("---\ntitle: S\n---\n§ 1\n> victory\n")
        fresh.replace(book)  # how many editors save
        assert _changed_soon(watcher)
    finally:
        watcher.close()


def test_without_watchfiles_it_compares_modification_times(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # import fails
    page = tmp_path / "01.dd"
    page.write_text("§ 1\n")
    watcher = BookWatcher(tmp_path)
    assert watcher._events is None
    assert not watcher.changed()
    page.write_text("§ 1\n> victory\n")

    os.utime(page, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    assert watcher.changed()
    assert not watcher.changed()
