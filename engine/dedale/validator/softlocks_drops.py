"""W086 for the inventory limit when the explorer left the drops out (issue 14.11).

Where more items never close a way (validator.state_monotone) and following every drop
would take too many states, the explorer walks the states without drops. A state holding
more items then does all that the same state with fewer does, so the soft-locks a drop
causes are looked for one drop at a time: from each state found at a paragraph where a gain
may pass the limit, the reader drops one held item that a later paragraph tests; if the
state could still win and the one after the drop cannot, and a state after it fails a
condition for want of that item, that is W086 ("may be dropped here"), with a path that
shows it. Each reported one is a real soft-lock. Not looked for: a loss that needs two drops
or more on the way (I158 says so), and candidates past the search's count and time budgets.
States with fewest items are tried first (a drop is likelier to doom them).
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Iterator

from dedale.i18n import ntr, tr
from dedale.validator.budget import Deadline
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph
from dedale.validator.rules_checks import Uses
from dedale.validator.state_explorer import Explorer, State

MAX_CANDIDATES = 500  # (state, item) drops examined (as softlocks.MAX_CANDIDATES)
MAX_VISITS = 200_000  # states visited in all by the searches of this check


class _Search:
    """Forward searches over the states without drops, memoised: which can still win."""

    def __init__(self, explorer: Explorer, victories: set[int], visits: int) -> None:
        from dedale.validator.softlocks import SOFTLOCK_SECONDS

        self.explorer, self.victories = explorer, victories
        self.deadline = Deadline(SOFTLOCK_SECONDS)
        self.alive: set[State] = set()
        self.doomed: set[State] = set()
        self.visits = visits

    def moves(self, state: State) -> Iterator[State]:
        number, items, codes, names = state
        for target, keep_i, add_i, keep_c, add_c in self.explorer.effect(state):
            yield (target, items & keep_i | add_i, codes & keep_c | add_c, names)

    def can_win(self, state: State) -> bool | None:
        """Whether a victory can be reached from ``state`` (None: out of budget). Depth
        first; a dead search marks every state it saw doomed, a live one its stack alive."""
        if state in self.alive or state[0] in self.victories:
            return True
        if state in self.doomed:
            return False
        seen = {state}
        stack = [(state, self.moves(state))]
        while stack:
            if self.visits <= 0 or self.deadline.passed():
                return None
            _, moves = stack[-1]
            nxt = next(moves, None)
            if nxt is None:
                stack.pop()
                continue
            if nxt in self.alive or nxt[0] in self.victories:
                self.alive.update(s for s, _ in stack)
                return True
            if nxt in seen or nxt in self.doomed:
                continue
            seen.add(nxt)
            self.visits -= 1
            stack.append((nxt, self.moves(nxt)))
        self.doomed |= seen
        return False

    def needed(self, start: State, name: str) -> int | None:
        """The paragraph where a doomed state after ``start`` fails for want of item
        ``name`` (breadth first, as softlocks does), or None."""
        queue, seen = deque([start]), {start}
        while queue and self.visits > 0 and not self.deadline.passed():
            self.visits -= 1
            state = queue.popleft()
            if ("item", name) in _failures(self.explorer, state):
                return state[0]
            for nxt in self.moves(state):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return None

    def path(self, goal: State) -> list[int]:
        """The paragraphs of a way from the start to ``goal`` (breadth first)."""
        starts = self.explorer.starts
        parent: dict[State, State | None] = dict.fromkeys(starts)
        queue = deque(starts)
        while queue and self.visits > 0 and goal not in parent and not self.deadline.passed():
            self.visits -= 1
            state = queue.popleft()
            for nxt in self.moves(state):
                if nxt not in parent:
                    parent[nxt] = state
                    queue.append(nxt)
        numbers: list[int] = []
        state: State | None = goal if goal in parent else None
        while state is not None and len(numbers) < 10_000:
            if not numbers or numbers[-1] != state[0]:
                numbers.append(state[0])
            state = parent[state]
        return numbers[::-1] or [goal[0]]


def _failures(explorer: Explorer, state: State) -> set[tuple[str, str]]:
    """The (kind, name) the gates of ``state``'s paragraph fail for, in that state."""
    saved = explorer.record, explorer._state
    explorer.record, explorer._state = True, state
    try:
        for _ in explorer._successors(state):
            pass
    finally:
        explorer.record, explorer._state = saved
    return explorer.failures.pop(state, set())


def _groups(explorer: Explorer, numbers: set[int]) -> list[list[State]]:
    """The states found at ``numbers``, one list per paragraph and class (states explored
    one by one)."""
    groups: dict[tuple, list[State]] = {}
    for state in explorer.seen:
        if state[0] in numbers:
            groups.setdefault((state[0], tuple(sorted(state[3]))), []).append(state)
    return [groups[key] for key in sorted(groups)]


def _first_states(groups: list[list[State]], each: int) -> list[State]:
    """From each group, its ``each`` states with fewest items, taken in turn."""
    firsts = [
        heapq.nsmallest(each, group, key=lambda s: (s[1].bit_count(), s[1], s[2]))
        for group in groups
    ]
    return _in_turn(firsts, each)


def _in_turn(firsts: list[list[State]], each: int) -> list[State]:
    return [group[k] for k in range(each) for group in firsts if k < len(group)]


def _candidates(explorer: Explorer, later: dict[int, int]) -> tuple[int, list[State]]:
    """(how many drops there are to examine, the states to try them from: each group's
    states with fewest items, in turn) over the states found at the paragraphs with drops,
    a group per paragraph and class."""
    numbers = explorer.unfollowed_drops
    if explorer.batch_seen is None:
        groups = _groups(explorer, numbers)
        total = 0
        for group in groups:  # every candidate drop, counted
            for state in group:
                touched_items = explorer.touched.get(state[0], (0, 0))[0]
                total += ((state[1] | touched_items) & later[state[0]]).bit_count()
        each = max(1, -(-MAX_CANDIDATES // max(1, len(groups))))
        return total, _first_states(groups, each)
    # batches: the states are bitsets (items | codes << shift), and classes explored once
    # share one set object (state_batches): each set is counted and sampled once
    shift = len(explorer.item_bit)
    low = (1 << shift) - 1
    keys = sorted(
        (key for key in explorer.batch_seen if key[0] in numbers),
        key=lambda key: (key[0], sorted(key[1])),
    )
    each = max(1, -(-MAX_CANDIDATES // max(1, len(keys))))
    done: dict[tuple[int, int], tuple[int, list[int]]] = {}
    total = 0
    firsts = []
    for number, names in keys:
        found = explorer.batch_seen[(number, names)]
        known = done.get((id(found), number))
        if known is None:
            touched_items = explorer.touched.get(number, (0, 0))[0]
            wanted = later[number]
            count = sum(((bits & low | touched_items) & wanted).bit_count() for bits in found)
            fewest = heapq.nsmallest(
                each, found, key=lambda bits: ((bits & low).bit_count(), bits & low, bits >> shift)
            )
            known = done[(id(found), number)] = (count, fewest)
        total += known[0]
        firsts.append([(number, bits & low, bits >> shift, names) for bits in known[1]])
    return total, _in_turn(firsts, each)


def _drops(explorer: Explorer, state: State, bit: int) -> set[tuple[int, int, int]]:
    """The (target, items, codes) after ``state``'s paragraph when a gain past the limit
    drops the item ``bit`` (and not without the drop), reduced to the target's live atoms."""
    number = state[0]
    saved = explorer.may_drop, explorer.drop_only
    try:
        explorer.may_drop, explorer.drop_only = set(), -1
        plain = set(explorer._successors(state))
        explorer.may_drop, explorer.drop_only = {number}, bit
        dropped = set(explorer._successors(state)) - plain
    finally:
        explorer.may_drop, explorer.drop_only = saved
    out = set()
    for target, items, codes in dropped:
        if target is None or target not in explorer.graph.nodes:
            continue
        live_items, live_codes = explorer.live.get(target, (0, 0))
        if items & bit or not live_items & bit:
            continue  # kept, or never tested again: no soft-lock for it
        out.add((target, items & live_items, codes & live_codes))
    return out


def _tested_later(explorer: Explorer, graph: Graph) -> dict[int, int]:
    """For each paragraph with drops, the items alive at one of its successors."""
    found = {}
    for number in explorer.unfollowed_drops:
        bits = 0
        for target in graph.successors(number):
            bits |= explorer.live.get(target, (0, 0))[0]
        found[number] = bits
    return found


def dropped_before_needed(
    explorer: Explorer | None, graph: Graph, uses: Uses
) -> tuple[list[Finding], list[Finding]]:
    """(W086 for drops one at a time, I158 saying what was not looked for) from an
    exploration that left the drops out (Explorer.unfollowed_drops)."""
    if explorer is None or not explorer.unfollowed_drops:
        return [], []
    if explorer.truncated or explorer.timed_out:
        return [], []
    from dedale.validator.softlocks import _finding

    victories = {n for n, node in graph.nodes.items() if "victory" in node.endings}
    search = _Search(explorer, victories, MAX_VISITS)
    gates = {key: (gate.passable, gate.missing) for key, gate in explorer.gates.items()}
    failures = set(explorer.failures)
    reported: dict[tuple[int, str], Finding] = {}
    examined = total = 0
    cut = False
    try:
        later = _tested_later(explorer, graph)
        total, firsts = _candidates(explorer, later)
        bits = {bit: bit for bit in explorer.item_names}
        skipped = 0
        for state in firsts:
            if cut:
                break
            number = state[0]
            touched_items = explorer.touched.get(number, (0, 0))[0]
            held = (state[1] | touched_items) & later[number]
            for bit in sorted(explorer.names(held, bits)):
                name = explorer.item_names[bit]
                if (number, name) in reported:
                    skipped += 1
                    continue
                if examined >= MAX_CANDIDATES or search.visits <= 0 or search.deadline.passed():
                    cut = True
                    continue
                examined += 1
                for target, items, codes in sorted(_drops(explorer, state, bit)):
                    after = (target, items, codes, state[3])
                    doomed = search.can_win(after)
                    if doomed is not False:
                        cut = cut or doomed is None
                        continue
                    alive = search.can_win(state)
                    if not alive:
                        cut = cut or alive is None
                        break
                    needed = search.needed(after, name)
                    if needed is None:
                        continue
                    path = search.path(state)
                    reported[(number, name)] = _finding(
                        explorer, graph, uses, state, "item", name, needed, path
                    )
                    break
        cut = cut or examined + skipped < total  # some states were not sampled
    finally:  # the searches' runs leave the gates and recorded failures as they were
        for key in list(explorer.gates):
            if key not in gates:
                del explorer.gates[key]
            else:
                explorer.gates[key].passable, explorer.gates[key].missing = gates[key]
        for key in set(explorer.failures) - failures:
            del explorer.failures[key]
    note = finding(
        "I158",
        ntr(
            "items dropped for the inventory limit were followed one drop at a time "
            "({count} paragraph where a gain may pass the limit): a soft-lock that needs "
            "two drops or more is not looked for",
            "items dropped for the inventory limit were followed one drop at a time "
            "({count} paragraphs where a gain may pass the limit): a soft-lock that needs "
            "two drops or more is not looked for",
            len(explorer.unfollowed_drops),
            count=len(explorer.unfollowed_drops),
        )
        if not cut
        else tr(
            "items dropped for the inventory limit were followed one drop at a time, "
            "{done} of {total} drops within the budget: a soft-lock that needs two drops "
            "or more, or past the budget, is not looked for",
            done=examined,
            total=total,
        ),
        None,
        hint=tr("no condition of the book needs an item to be absent: E028 and W029 are exact"),
    )
    return list(reported.values()), [note]
