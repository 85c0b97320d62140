"""The state-aware explorer: (paragraph, items held, codewords set, class) states.

The explorer walks the states from the start, running each paragraph body symbolically:
item and codeword operations change the state, choices and ``if`` whose conditions test
items or codewords are taken only when the state allows it, and everything else (stats,
dice, visited paragraphs) may go either way. Only the items and codewords that some
condition tests are tracked, and each only while a later paragraph may still test it
(validator.state_atoms: liveness); each paragraph's effect on the atoms it touches is
cached, keyed by their values, so a paragraph met again with other atoms in flight is not
run again. What one state leads to: validator.state_steps; where it starts:
validator.state_start; the findings drawn from an exploration: validator.state_reach.
"""

from __future__ import annotations

from collections import deque

from dedale import ast
from dedale.span import Span
from dedale.validator.budget import CLOCK_EVERY, STATES_SECONDS, Deadline
from dedale.validator.graph import Graph
from dedale.validator.state_atoms import Atoms, live_atoms, paragraph_atoms
from dedale.validator.state_batches import explore_in_batches
from dedale.validator.state_steps import UNKNOWN, Flow, Gate, State, StateSteps

__all__ = ["MAX_RECORDED", "MAX_STATES", "UNKNOWN", "Explorer", "Flow", "Gate", "State"]

MAX_STATES = 1_000_000  # states found in batches (~60 bytes each); the time budget too
MAX_RECORDED = 300_000  # states explored one by one with their steps (~400 bytes each)


class Explorer(StateSteps):
    """Explores the states of one book."""

    def __init__(self, graph: Graph, book: object, items: set[str], codewords: set[str]):
        self.graph = graph
        self.book = book
        self.items = items
        self.codewords = codewords
        # one bit per tracked item, one per tracked codeword or flag (sorted: stable)
        self.item_bit = {name: 1 << k for k, name in enumerate(sorted(items))}
        self.code_bit = {name: 1 << k for k, name in enumerate(sorted(codewords))}
        self.item_names = {bit: name for name, bit in self.item_bit.items()}
        self.code_names = {bit: name for name, bit in self.code_bit.items()}
        self.gates: dict[tuple[int, Span], Gate] = {}
        self.seen: set[State] = set()
        self.reached: set[int] = set()
        self.truncated = False
        self.deadline = Deadline(STATES_SECONDS)  # the time budget (validator.budget)
        self.timed_out = False
        self.bodies: dict[int, tuple[ast.Statement, ...]] = {}
        self.hero_class: frozenset[str] = frozenset()  # of the state being expanded
        # with ``record`` (for the soft-lock checks): every state's predecessors, the first
        # one found, and the items/codewords (kind, folded name) its gates failed for want of
        self.record = False
        self.preds: dict[State, set[State]] = {}
        self.parent: dict[State, State] = {}
        self.failures: dict[State, set[tuple[str, str]]] = {}
        self._state: State | None = None
        # paragraphs where a gain may pass the ruleset's inventory limit (see explore_states)
        self.may_drop: set[int] = set()
        # those left out because more items never close a way (validator.state_monotone)
        self.unfollowed_drops: set[int] = set()
        # compact mode (validator.state_atoms): the atoms each paragraph touches, those
        # still alive at each paragraph, and the cached effect of each paragraph on them
        self.compact = False
        self.touched: dict[int, tuple[int, int]] = {}
        # whether a condition tests the hero's class (else only each class's kit differs)
        self.reads_class = False
        self.live: dict[int, tuple[int, int]] = {}
        self.effects: dict[tuple, tuple[list, set | None]] = {}
        self.effect_hits = 0
        self.count = 0  # states found (``seen`` holds them only when explored one by one)
        self.limit = MAX_STATES  # the count budget of this exploration (I050)
        self.cap: int | None = None  # a lower count budget, for a trial (state_start)
        self.drop_only = -1  # the items a drop for the inventory limit may take (bits)
        self.starts: list[State] = []
        # batches (validator.state_batches): (paragraph, class) -> items | codes << shift
        self.batch_seen: dict[tuple[int, frozenset[str]], set[int]] | None = None
        self.twins: dict[frozenset[str], frozenset[str]] = {}  # class -> the one explored

    def masks(self, atoms: Atoms) -> tuple[int, int]:
        """The bitsets of folded item names and codeword keys."""
        items, codes = atoms
        item_bit, code_bit = self.item_bit, self.code_bit
        return (
            sum(item_bit[name] for name in items if name in item_bit),
            sum(code_bit[name] for name in codes if name in code_bit),
        )

    def names(self, bits: int, table: dict[int, str]) -> set[str]:
        """The folded names of the bits set in ``bits`` (``table``: item_names or code_names)."""
        found = set()
        while bits:
            low = bits & -bits
            found.add(table[low])
            bits ^= low
        return found

    def prepare_compact(self) -> None:
        """Compute the atoms of each paragraph and their liveness (compact mode)."""
        reads: dict[int, int] = {}  # items in the low bits, codewords above them
        shift = len(self.item_bit)
        for number, node in self.graph.nodes.items():
            found = paragraph_atoms(node.paragraph.body, self.items, self.codewords)
            items, codes = self.masks(found.reads)
            reads[number] = items | codes << shift
            self.touched[number] = self.masks(found.touched)
            self.reads_class = self.reads_class or found.reads_class
        low = (1 << shift) - 1
        self.live = {
            n: (bits & low, bits >> shift) for n, bits in live_atoms(self.graph, reads).items()
        }
        self.compact = True

    def project(self, state: State) -> State:
        """``state`` with only the atoms still alive at its paragraph (compact mode)."""
        if not self.compact:
            return state
        number, items, codes, names = state
        live_items, live_codes = self.live.get(number, (0, 0))
        return (number, items & live_items, codes & live_codes, names)

    def alive_at(self, number: int) -> tuple[int, int] | None:
        """The bitsets tracked at ``number`` (None: every tracked atom, not compact)."""
        return self.live.get(number, (0, 0)) if self.compact else None

    def explore(self, starts: list[State]) -> None:
        starts = [self.project(state) for state in starts if state[0] in self.graph.nodes]
        self.starts = starts
        cap = MAX_STATES if self.cap is None else min(self.cap, MAX_STATES)
        if self.compact and not self.record:  # no steps to record: whole batches at once
            explore_in_batches(self, starts, cap)
            return
        self.limit = MAX_RECORDED if self.record else MAX_STATES
        self.limit = self.limit if self.cap is None else min(self.cap, self.limit)
        queue = deque(dict.fromkeys(starts))
        self.seen.update(queue)
        try:
            self._explore_states(queue)
        finally:
            self.count = len(self.seen)

    def _explore_states(self, queue: deque[State]) -> None:
        """State by state, breadth first (the steps recorded when ``record``)."""
        if self.compact:
            self._explore_compact(queue)
            return
        while queue:
            state = queue.popleft()
            self.reached.add(state[0])
            self._state = state
            for target, items, codes in self.successors(state):
                if target is None or target not in self.graph.nodes:
                    continue
                nxt = (target, items, codes, state[3])
                if self.record:
                    self.preds.setdefault(nxt, set()).add(state)
                if nxt not in self.seen:
                    if self.record:
                        self.parent[nxt] = state
                    if len(self.seen) >= self.limit:
                        self.truncated = True
                        return
                    if len(self.seen) % CLOCK_EVERY == 0 and self.deadline.passed():
                        self.truncated = self.timed_out = True
                        return
                    self.seen.add(nxt)
                    queue.append(nxt)

    def _explore_compact(self, queue: deque[State]) -> None:
        """The breadth-first loop of compact mode (the same order as the full one)."""
        seen, reached, record, effect = self.seen, self.reached, self.record, self.effect
        preds, parent = self.preds, self.parent
        while queue:
            state = queue.popleft()
            reached.add(state[0])
            self._state = state
            _, items, codes, names = state
            for target, keep_items, add_items, keep_codes, add_codes in effect(state):
                nxt = (
                    target,
                    items & keep_items | add_items,
                    codes & keep_codes | add_codes,
                    names,
                )
                if record:
                    preds.setdefault(nxt, set()).add(state)
                if nxt not in seen:
                    if record:
                        parent[nxt] = state
                    if len(seen) >= self.limit:
                        self.truncated = True
                        return
                    if len(seen) % CLOCK_EVERY == 0 and self.deadline.passed():
                        self.truncated = self.timed_out = True
                        return
                    seen.add(nxt)
                    queue.append(nxt)
