"""The state-aware explorer's fast loop: states handled a paragraph at a time, in batches.

When the soft-lock checks need no record of the steps (validator.softlocks.may_lose), the
states waiting at a paragraph are expanded together: grouped by the values of the atoms
the paragraph touches, each group takes the paragraph's cached moves
(``Explorer.effect``) once, and every state of the group follows each move by two bit
operations (``bits & kept | added``) in a set comprehension. The states found are exactly
those of the state-by-state loop — same reachable paragraphs, same gates — only the order
of the work differs (the smallest paragraph number first, which a book written forward
expands once). Bounded by the explorer's count (``max_states``) and time budgets.
"""

from __future__ import annotations

import heapq
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dedale.validator.state_explorer import Explorer, State


def explore_in_batches(explorer: Explorer, starts: list[State], max_states: int) -> None:
    """Explore from ``starts`` (already reduced to their live atoms) into ``explorer``:
    its ``reached``, ``gates``, ``count``, ``truncated`` and ``timed_out``."""
    shift = len(explorer.item_bit)
    low = (1 << shift) - 1

    seen: dict[tuple[int, frozenset[str]], set[int]] = {}
    pending: dict[tuple[int, frozenset[str]], set[int]] = {}
    heap: list[tuple[int, tuple[str, ...], frozenset[str]]] = []
    moves_of: dict[tuple, list[tuple[int, int, int]]] = {}
    count = 0
    explorer.batch_seen = seen  # the states found, for the drops' soft-locks (softlocks_drops)
    for number, items, codes, names in starts:
        bits = items | codes << shift
        place = (number, names)
        if bits not in seen.setdefault(place, set()):
            seen[place].add(bits)
            count += 1
            if place not in pending:
                heapq.heappush(heap, (number, tuple(sorted(names)), names))
            pending.setdefault(place, set()).add(bits)
    while heap:
        number, _, names = heapq.heappop(heap)
        batch = pending.pop((number, names), None)
        if not batch:
            continue
        if explorer.deadline.passed():  # once per batch: a clock look costs ~0.1 µs
            explorer.count = count
            explorer.truncated = explorer.timed_out = True
            return
        explorer.reached.add(number)
        touched_items, touched_codes = explorer.touched[number]
        touched = -1 if number in explorer.may_drop else touched_items | touched_codes << shift
        groups: dict[int, list[int]] = {}
        for bits in batch:
            groups.setdefault(bits & touched, []).append(bits)
        for key, members in groups.items():
            cache_key = (number, names, key if touched != -1 else members[0])
            moves = moves_of.get(cache_key)
            if moves is None:
                first = members[0]
                state = (number, first & low, first >> shift, names)
                moves = moves_of[cache_key] = [
                    (target, kept_i | kept_c << shift, added_i | added_c << shift)
                    for target, kept_i, added_i, kept_c, added_c in explorer.effect(state)
                ]
                if touched == -1:  # one state per key: the cache would never hit
                    del moves_of[cache_key]
            for target, kept, added in moves:
                place = (target, names)
                known = seen.setdefault(place, set())
                found = {bits & kept | added for bits in members} - known
                if not found:
                    continue
                count += len(found)
                if count > max_states:
                    explorer.count, explorer.truncated = count, True
                    return
                known |= found
                waiting = pending.get(place)
                if waiting is None:
                    pending[place] = found
                    heapq.heappush(heap, (target, tuple(sorted(names)), names))
                else:
                    waiting |= found
    explorer.count = count
