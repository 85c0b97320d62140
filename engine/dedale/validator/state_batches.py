"""The state-aware explorer's fast loop: states handled a paragraph at a time, in batches.

When the soft-lock checks need no record of the steps (validator.softlocks.may_lose), the
states waiting at a paragraph are expanded together: grouped by the values of the atoms
the paragraph touches, each group takes the paragraph's cached moves
(``Explorer.effect``) once, and every state of the group follows each move by two bit
operations (``bits & kept | added``) in a set comprehension. The states found are exactly
those of the state-by-state loop — same reachable paragraphs, same gates — only the order
of the work differs (the smallest paragraph number first, which a book written forward
expands once). Classes that cannot differ (no condition tests the class, and their kits
give the same tracked items) are explored once and counted once each. Bounded by the
explorer's count (``max_states``: every class's states counted) and time budgets.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
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
    # the atoms alive at each paragraph: a state waiting there has no other bit set
    live = {number: items | codes << shift for number, (items, codes) in explorer.live.items()}
    explorer.batch_seen = seen  # the states found, for the drops' soft-locks (softlocks_drops)
    shared = _same_classes(explorer, starts)
    explorer.twins = {other: names for names, others in shared.items() for other in others}
    weight = {names: 1 + len(others) for names, others in shared.items()}
    for number, items, codes, names in starts:
        if names not in weight:
            continue  # explored as its class's twin (shared)
        bits = items | codes << shift
        place = (number, names)
        if bits not in seen.setdefault(place, set()):
            seen[place].add(bits)
            count += weight[names]
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
        alive = live[number]
        for key, members in _groups(batch, touched):
            cache_key = (number, names, key)  # each state its own key where touched is -1
            moves = moves_of.get(cache_key)
            if moves is None:
                first = next(iter(members))
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
                if added or alive & ~kept:
                    found = {bits & kept | added for bits in members} - known
                else:  # the move keeps every bit a state here may have: the same states
                    found = members - known
                if not found:
                    continue
                count += len(found) * weight[names]
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
    for names, others in shared.items():  # the twins' states: the same sets, read only
        for (number, found_names), found in list(seen.items()):
            if found_names == names:
                for other in others:
                    seen[(number, other)] = found


def _same_classes(explorer: Explorer, starts: list[State]) -> dict[frozenset, list[frozenset]]:
    """Each class to explore, with the classes whose states are the same as its own (they
    are explored once). When no condition of the book tests the hero's class, a class
    matters only by the tracked items of its kit: classes that start from the same states
    find the same states everywhere, the same gates and the same moves."""
    starts_of: dict[frozenset, set[tuple[int, int, int]]] = {}
    for number, items, codes, names in starts:
        starts_of.setdefault(names, set()).add((number, items, codes))
    if explorer.reads_class:
        return {names: [] for names in starts_of}
    twins: dict[frozenset, frozenset] = {}  # the starting states -> the first class with them
    shared: dict[frozenset, list[frozenset]] = {}
    for names, found in starts_of.items():
        first = twins.setdefault(frozenset(found), names)
        shared.setdefault(first, [])
        if first != names:
            shared[first].append(names)
    return shared


def _groups(batch: set[int], touched: int) -> Iterator[tuple[int, set[int]]]:
    """The states of ``batch`` grouped by their bits in ``touched`` (-1: each state alone).
    Split one touched bit at a time by set comprehensions while there are few (most
    paragraphs touch none or one atom), else by a loop over the states."""
    if touched == -1:
        for bits in batch:
            yield bits, {bits}
        return
    if touched.bit_count() > 2:
        groups: dict[int, set[int]] = {}
        for bits in batch:
            key = bits & touched
            group = groups.get(key)
            if group is None:
                groups[key] = {bits}
            else:
                group.add(bits)
        yield from groups.items()
        return
    parts = [(0, batch)]
    while touched:
        bit = touched & -touched
        touched ^= bit
        split = []
        for key, members in parts:
            having = {bits for bits in members if bits & bit}
            if having:
                split.append((key | bit, having))
            if len(having) < len(members):
                split.append((key, members - having if having else members))
        parts = split
    yield from parts
