"""The Lark table caches (dedale.grammars): keyed by the grammar's text and Lark's version,
and harmless when the cache is corrupt or cannot be written (issue 14.11)."""

from __future__ import annotations

import os
from pathlib import Path

import lark
from dedale import grammars
from dedale.language import parser

SOURCE = "§ 1\n> fight ORC SKILL 6 STAMINA 5\n> win -> 2\n\n§ 2\n> victory\n"


def _fresh_parse(monkeypatch, cache_home: Path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_home))
    monkeypatch.delenv("DEDALE_NO_CACHE", raising=False)
    parser.book_parser.cache_clear()
    try:
        return parser.parse_text(SOURCE, "book.dd")
    finally:
        parser.book_parser.cache_clear()


def _cache_file(cache_home: Path) -> Path:
    files = sorted((cache_home / "dedale").glob("book-grammar-*.lark-cache"))
    assert len(files) == 1
    return files[0]


def test_the_key_changes_with_the_grammar_and_lark(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("DEDALE_NO_CACHE", raising=False)
    first = grammars.table_cache("start: X", "g")
    assert first != grammars.table_cache("start: Y", "g")
    later = lark.__version__ + ".later"
    monkeypatch.setattr(grammars, "lark_version", lambda: later)
    assert first != grammars.table_cache("start: X", "g")


def test_larks_version_is_read_without_importing_it():
    """(issue 14.11: the fast paths' cache key needs it; Lark is imported only for a line
    that needs the parser)"""
    assert grammars.lark_version() == lark.__version__
    assert grammars._VERSION.search('__version__: str = "1.2.2"\n').group(1) == "1.2.2"
    assert grammars._VERSION.search("__version__ = '0.9'\n").group(1) == "0.9"


def test_a_corrupt_cache_is_rebuilt(tmp_path, monkeypatch):
    expected = _fresh_parse(monkeypatch, tmp_path)
    cache = _cache_file(tmp_path)
    good = cache.read_bytes()
    cache.write_bytes(b"not a cache\n\x80\x04garbage")
    assert _fresh_parse(monkeypatch, tmp_path) == expected
    assert cache.read_bytes()[:64] == good[:64]  # written again, whole
    cache.write_bytes(good[: len(good) // 2])  # cut short
    assert _fresh_parse(monkeypatch, tmp_path) == expected


def test_an_unwritable_cache_is_done_without(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be", "utf-8")
    expected = _fresh_parse(monkeypatch, blocker)  # no folder can be made there
    assert grammars.table_cache("start: X", "g") is False
    (tmp_path / "home" / "dedale").mkdir(parents=True)
    _fresh_parse(monkeypatch, tmp_path / "home")
    cache = _cache_file(tmp_path / "home")
    cache.unlink()
    cache.mkdir()  # the cache's own path cannot be read nor written
    assert _fresh_parse(monkeypatch, tmp_path / "home") == expected
    assert cache.is_dir()
    monkeypatch.setenv("DEDALE_NO_CACHE", "1")
    assert grammars.table_cache("start: X", "g") is False
    assert os.environ["XDG_CACHE_HOME"]
