"""What the interpreter works out once per book and reuses in every game of it.

Name resolutions, parsed dice, the World each paragraph opens, fight specs and the choice
prompts of paragraphs whose choices never change (no condition, cost, computed target or
World) are computed on first use. The Book is immutable, so this is pure memoisation; it
matters for the random tester, which plays thousands of games of one book.
"""

from __future__ import annotations

import functools
from typing import Any

from dedale.rules import fold

_CACHES: dict[int, BookCache] = {}
_MAX_BOOKS = 32


class BookCache:
    """Per-book memo tables (see the module docstring)."""

    __slots__ = ("book", "names", "dice", "worlds_of", "fights", "prompts", "hidden", "rulesets")

    def __init__(self, book) -> None:
        self.book = book
        self.names: dict[str, tuple[str, str] | None] = {}
        self.dice: dict[str, Any] = {}
        self.worlds_of: dict[int, str | None] = {}
        self.fights: dict[int, Any] = {}
        self.prompts: dict[tuple[int, ...], Any] = {}
        self.hidden: frozenset[int] | None = None  # paragraphs declared hidden
        self.rulesets: dict[str, Any] = {}  # attack stat -> ruleset of "attack with" fights


def cache_for(book) -> BookCache:
    """The memo tables of ``book`` (created on first use)."""
    cache = _CACHES.get(id(book))
    if cache is None or cache.book is not book:
        if len(_CACHES) >= _MAX_BOOKS:
            _CACHES.clear()
        cache = _CACHES[id(book)] = BookCache(book)
    return cache


@functools.lru_cache(maxsize=8192)
def folded(name: str) -> str:
    """:func:`dedale.rules.fold`, memoised (names repeat across paragraphs and games)."""
    return fold(name)
