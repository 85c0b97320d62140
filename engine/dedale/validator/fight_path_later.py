"""Moves of the path search whose costly fights wait until the search needs them.

The search (:class:`dedale.validator.fight_path._Search`) takes its labels off a heap by
the chance alive they keep. A move through a fight whose exact end states are costly to
compute (a reliques fight's forward pass, :mod:`dedale.validator.fight_path_reliques`)
goes on the heap with a bound instead: an upper bound of the chance it keeps, surely
*below* the chance before the fight (the chain's ``bound``; None: computed at once). The
fight is computed exactly when that entry comes off the heap, and the move then takes
its place as the search would have pushed it at once. A search that reaches its victory
first never computes it (a book whose best path avoids the fight).

The same labels come off the heap in the same order as when every move is computed at
once, provided the bound is strictly above the chance the move keeps: a waiting entry's
key ``(-bound, 1, n)`` comes off after every computed entry of at least ``bound`` (which
all come before the move's own entry, of less) and before every one of less than
``bound`` (so the move is computed before any entry that should follow it comes off). Its
counter ``n`` is taken when it is pushed, where the search would have taken it; of two
moves to the same label (paragraph, items, distribution: :meth:`Later.claim`) the one
pushed first is kept, as the search keeps it, even when the other was computed before it
(that one has the same chance, below the bound: it cannot come off the heap before the
waiting entry is computed).
"""

from __future__ import annotations

from collections.abc import Callable

LATER = -2
"""The ``number`` slot of a waiting entry (fight_path.GOAL is -1, paragraphs are >= 1)."""


class Unsound(Exception):
    """A move kept more chance than its bound said: the search starts again without
    waiting moves (never expected: the bounds have a margin for rounding)."""


class Later:
    """The waiting moves' bookkeeping of one search: who claimed each label first."""

    def __init__(self, chain: object) -> None:
        self.bound: Callable | None = getattr(chain, "bound", None)
        self.seen: dict[tuple, int] = {}
        self.dropped: set[int] = set()  # counters of entries a first claim displaced
        self.waited = self.resolved = 0  # moves that waited, and those computed later

    def wait(self, dist: dict, held: frozenset[str], steps: tuple) -> float | None:
        """The bound of a move that may wait (None: compute it now)."""
        if self.bound is None:
            return None
        found = self.bound(dist, held, steps)
        if found is not None:
            self.waited += 1
        return found

    def computed(self, after: dict, bound: float) -> float:
        """The chance a waiting move keeps (``after``: its distribution, now computed);
        :class:`Unsound` if it is not below its bound."""
        self.resolved += 1
        left = sum(after.values())
        if left > 0 and left >= bound:
            raise Unsound
        return left

    def claim(self, key: tuple, counter: int) -> bool:
        """Whether the entry numbered ``counter`` is the first one pushed to ``key``
        (the search keeps it); a later-numbered holder of the key is dropped."""
        known = self.seen.get(key)
        if known is not None and known < counter:
            return False
        if known is not None:
            self.dropped.add(known)
        self.seen[key] = counter
        return True
