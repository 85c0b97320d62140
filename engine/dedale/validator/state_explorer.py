"""The state-aware explorer: (paragraph, items held, codewords set, class) states.

The explorer walks the states from the start, running each paragraph body symbolically:
item and codeword operations change the state, choices and ``if`` whose conditions test
items or codewords are taken only when the state allows it, and everything else (stats,
dice, visited paragraphs) may go either way. Only the items and codewords that some
condition tests are tracked, and each only while a later paragraph may still test it
(validator.state_atoms: liveness); each paragraph's effect on the atoms it touches is
cached, keyed by their values, so a paragraph met again with other atoms in flight is not
run again. Where it starts: validator.state_start; the findings drawn from an exploration:
validator.state_reach.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from dedale import ast
from dedale.language.order import is_rule
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.book_state_checks import flag_key
from dedale.validator.budget import CLOCK_EVERY, STATES_SECONDS, Deadline
from dedale.validator.graph import (
    Graph,
    atoms,
    constant_value,
    resolve,
    some_roll_unmatched,
    walk,
)
from dedale.validator.state_atoms import Atoms, live_atoms, paragraph_atoms
from dedale.validator.state_batches import explore_in_batches

MAX_STATES = 1_000_000  # states found in batches (~60 bytes each); the time budget too
MAX_RECORDED = 300_000  # states explored one by one with their steps (~400 bytes each)

# (paragraph, items held, codewords set, the class's folded names: empty when unknown);
# items and codewords are bitsets (Explorer.item_bit, Explorer.code_bit; names: Explorer.names)
State = tuple[int, int, int, frozenset[str]]
Flow = tuple[int, int, tuple[ast.Choice | ast.HiddenNumber, ...]]

UNKNOWN = None  # three-valued logic: True, False, or None (cannot tell statically)


@dataclass(slots=True)
class Gate:
    """A condition met during exploration, and whether some state could pass it."""

    paragraph: int
    condition: ast.Condition
    span: Span
    targets: set[int] = field(default_factory=set)
    passable: bool = False
    missing: set[tuple[str, str]] | None = None  # (kind, written name) absent every time


class Explorer:
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

    # ----------------------------------------------------------------- conditions
    def value(self, condition: ast.Condition, items, codes) -> bool | None:
        if isinstance(condition, ast.HasItem):
            held = bool(items & self.item_bit.get(fold(condition.item), 0))
            return UNKNOWN if held and condition.count > 1 else held  # "if 2 Torches"
        if isinstance(condition, ast.HasCodeword):
            return bool(codes & self.code_bit.get(fold(condition.codeword), 0))
        if isinstance(condition, ast.HasFlag):  # the book's flags: tracked as codewords
            return bool(codes & self.code_bit.get(flag_key(condition.name), 0))
        if isinstance(condition, ast.HasClass) and self.hero_class:
            return fold(condition.name) in self.hero_class
        if isinstance(condition, ast.Not):
            inner = self.value(condition.operand, items, codes)
            return None if inner is None else not inner
        if isinstance(condition, ast.And | ast.Or):
            values = [self.value(op, items, codes) for op in condition.operands]
            decisive = isinstance(condition, ast.Or)
            if decisive in values:
                return decisive
            return None if None in values else not decisive
        return UNKNOWN

    def gate(self, number: int, condition, items, codes, targets) -> bool:
        """Record a gate; True when this state may pass it."""
        key = (number, condition.span)
        gate = self.gates.get(key)
        if gate is None:
            gate = self.gates[key] = Gate(number, condition, condition.span, set(targets))
        passes = self.value(condition, items, codes) is not False
        gate.passable |= passes
        if not passes:
            absent = {
                (("item", a.item) if isinstance(a, ast.HasItem) else ("codeword", a.codeword))
                for a in atoms(condition)
                if (isinstance(a, ast.HasItem) and not items & self.item_bit.get(fold(a.item), 0))
                or (
                    isinstance(a, ast.HasCodeword)
                    and not codes & self.code_bit.get(fold(a.codeword), 0)
                )
            } | {
                ("flag", a.name)
                for a in atoms(condition)
                if isinstance(a, ast.HasFlag) and not codes & self.code_bit.get(flag_key(a.name), 0)
            }
            gate.missing = absent if gate.missing is None else gate.missing & absent
            if self.record and self._state is not None:
                failed = self.failures.setdefault(self._state, set())
                failed.update((kind, fold(name)) for kind, name in absent)
        return passes

    # ----------------------------------------------------------------- bodies
    def target(self, ref: ast.Destination, number: int) -> int | None:
        if isinstance(ref, ast.ComputedRef):
            return constant_value(ref.expr, number)
        return resolve(self.book, ref)

    def targets(self, ref: ast.Destination, number: int) -> list[int | None]:
        """Every paragraph a destination may name: one, or for an issue-8 computed
        destination ([noted camp], go back, [key + 20]) those the graph resolved."""
        if isinstance(ref, ast.ComputedRef) and constant_value(ref.expr, number) is None:
            found = [edge.target for edge in self.graph.nodes[number].edges if edge.ref is ref]
            return found or [None]
        return [self.target(ref, number)]

    def run(self, number: int, body, flow: Flow) -> Iterator[tuple[str, object]]:
        """Outcomes of running ``body``: ("go", (target, items, codes)) or ("fall", flow)."""
        if not body:
            yield "fall", flow
            return
        items, codes, choices = flow
        if choices and is_rule(body[0]):  # offered before this rule (13.5)
            for result in self.taken(choices, number, items, codes):
                yield "go", result
            flow = (items, codes, ())
        for kind, result in self.step(number, body[0], flow):
            if kind == "fall":
                yield from self.run(number, body[1:], result)
            else:
                yield kind, result

    def step(self, number: int, statement, flow: Flow) -> Iterator[tuple[str, object]]:
        items, codes, choices = flow
        if isinstance(statement, ast.GainItem):
            held = items | self.item_bit.get(fold(statement.item), 0)
            yield "fall", (held, codes, choices)
            if number in self.may_drop:  # over the inventory limit: any item may be dropped
                for dropped in sorted(self.names(held & self.drop_only, self.item_names)):
                    yield "fall", (held & ~self.item_bit[dropped], codes, choices)
        elif isinstance(statement, ast.LoseItem):
            yield "fall", (items & ~self.item_bit.get(fold(statement.item), 0), codes, choices)
        elif isinstance(statement, ast.SetCodeword):
            yield "fall", (items, codes | self.code_bit.get(fold(statement.codeword), 0), choices)
        elif isinstance(statement, ast.ClearCodeword):
            yield "fall", (items, codes & ~self.code_bit.get(fold(statement.codeword), 0), choices)
        elif isinstance(statement, ast.SetFlag):
            yield "fall", (items, codes | self.code_bit.get(flag_key(statement.name), 0), choices)
        elif isinstance(statement, ast.ClearFlag):
            yield "fall", (items, codes & ~self.code_bit.get(flag_key(statement.name), 0), choices)
        elif isinstance(statement, ast.Choice):
            yield "fall", (items, codes, (*choices, statement))
        elif isinstance(statement, ast.Goto):
            for target in self.targets(statement.target, number):
                yield "go", (target, items, codes)
        elif isinstance(statement, ast.Ending):
            yield "end", statement.kind
        elif isinstance(statement, ast.If):
            if self.tracks(statement.condition):
                targets = {
                    self.target(s.target, number)
                    for s in walk(statement.then)
                    if isinstance(s, ast.Goto | ast.Choice)
                }
                self.gate(number, statement.condition, items, codes, targets - {None})
            value = self.value(statement.condition, items, codes)
            if value is not False:
                yield from self.run(number, statement.then, flow)
            if value is not True:
                yield from self.run(number, statement.otherwise, flow)
        elif isinstance(statement, ast.Test | ast.DuoTest | ast.D20Test | ast.RandomRoll):
            for branch in statement.branches:
                yield from self.run(number, branch.body, flow)
            if some_roll_unmatched(statement):
                yield "fall", flow
        elif isinstance(statement, ast.Fight):
            for ref in (statement.win, statement.lose):
                if ref is not None:
                    yield "go", (self.target(ref, number), items, codes)
            extras = (statement.escape, statement.assault_limit)
            for extra in (*extras, statement.threshold, statement.win_assaults):
                if extra is not None:
                    yield "go", (self.target(extra.target, number), items, codes)
            for rule in statement.rules:  # exits written under an enemy
                if rule.target is not None:
                    yield "go", (self.target(rule.target, number), items, codes)
            if statement.lose is None:
                yield "end", "death"
            if statement.win is None:
                yield "fall", flow
        elif isinstance(statement, ast.Shop):  # the reader may buy nothing, or everything
            yield "fall", flow
            bought = 0
            for offer in statement.offers:
                if isinstance(offer.goods, ast.GainItem):
                    bought |= self.item_bit.get(fold(offer.goods.item), 0)
            if bought:
                yield "fall", (items | bought, codes, choices)
        elif isinstance(statement, ast.MayTake):  # the reader may take it, or leave it
            yield "fall", flow
            yield from self.step(number, statement.take, flow)
        elif isinstance(statement, ast.HiddenNumber):  # its answers, wrong lines, fallback
            if not statement.offered:
                for target in self.answers(statement, number):
                    yield "go", (target, items, codes)
            for kind, result in self.run(number, statement.wrong, (items, codes, ())):
                if kind != "fall":
                    yield kind, result
                elif statement.otherwise is not None and not statement.offered:
                    for target in self.targets(statement.otherwise, number):
                        yield "go", (target, result[0], result[1])
                elif not statement.offered:
                    yield "fall", result
            if statement.offered:  # offered among the choices; the reader may leave it aside
                yield "fall", (items, codes, (*choices, statement))
        else:
            yield "fall", flow

    def tracks(self, condition: ast.Condition) -> bool:
        return any(
            isinstance(a, ast.HasItem | ast.HasCodeword | ast.HasFlag) for a in atoms(condition)
        )

    def successors(self, state: State) -> Iterator[tuple[int | None, int, int]]:
        """The (target, items, codes) after ``state``'s paragraph (full states; compact
        mode goes through :meth:`effect`)."""
        return self._successors(state)

    def effect(self, state: State) -> list[tuple[int, int, int, int, int]]:
        """Compact mode: the moves out of ``state`` as (target, items kept, items added,
        codes kept, codes added), the next state's bitsets being ``items & kept | added``,
        already reduced to the atoms alive at the target. Cached by the paragraph and the
        atoms it touches (not where a gain may be dropped for the inventory limit: any held
        item may go there); the record mode's failures are replayed from the cache."""
        number, items, codes, names = state
        live, nodes = self.live, self.graph.nodes
        if number in self.may_drop:
            return [
                (target, 0, i & live[target][0], 0, c & live[target][1])
                for target, i, c in dict.fromkeys(self._successors(state))
                if target is not None and target in nodes
            ]
        touched_items, touched_codes = self.touched[number]
        key = (number, items & touched_items, codes & touched_codes, names)
        cached = self.effects.get(key)
        if cached is None:
            inner = (number, key[1], key[2], names)
            saved = self._state
            self._state = inner
            moves = []
            for target, out_items, out_codes in dict.fromkeys(self._successors(inner)):
                if target is None or target not in nodes:
                    continue
                live_items, live_codes = live[target]
                moves.append(
                    (
                        target,
                        ~touched_items & live_items,
                        out_items & live_items,
                        ~touched_codes & live_codes,
                        out_codes & live_codes,
                    )
                )
            failed = self.failures.pop(inner, None) if self.record else None
            self._state = saved
            cached = self.effects[key] = (moves, failed)
        else:
            self.effect_hits += 1
        if cached[1]:
            self.failures.setdefault(state, set()).update(cached[1])
        return cached[0]

    def _successors(self, state: State) -> Iterator[tuple[int | None, int, int]]:
        number, items, codes, self.hero_class = state
        body = self.bodies.get(number)
        if body is None:
            body = self.bodies[number] = _relevant(self.graph.nodes[number].paragraph.body)
        for kind, result in self.run(number, body, (items, codes, ())):
            if kind == "go":
                yield result
            elif kind == "fall":
                end_items, end_codes, choices = result
                yield from self.taken(choices, number, end_items, end_codes)

    def taken(self, choices, number: int, items, codes) -> Iterator:
        """The states after taking each of ``choices`` (hidden-number choices: each answer)."""
        for choice in choices:
            if isinstance(choice, ast.HiddenNumber):
                targets = self.answers(choice, number)
            else:
                targets = self.targets(choice.target, number)
            for target in targets:
                yield from self._through(choice, target, number, items, codes)

    def answers(self, prompt: ast.HiddenNumber, number: int) -> list[int | None]:
        """The paragraphs a hidden-number prompt opens (the graph's ``hidden`` edges)."""
        return [
            edge.target
            for edge in self.graph.nodes[number].edges
            if edge.span == prompt.span and edge.kind == "hidden"
        ]

    def _through(self, choice, target, number, end_items, end_codes):
        """The state after taking ``choice`` to ``target``, if its gate and costs let it."""
        passes = True
        if choice.condition is not None and self.tracks(choice.condition):
            passes = self.gate(number, choice.condition, end_items, end_codes, {target} - {None})
        elif choice.condition is not None and self.hero_class:  # `(if class Wizard)`
            passes = self.value(choice.condition, end_items, end_codes) is not False
        left = end_items
        for cost in getattr(choice, "costs", ()):
            if cost.item is not None:
                name = fold(cost.item)
                bit = self.item_bit.get(name, 0)
                if bit and not end_items & bit:
                    passes = False
                    if self.record and self._state is not None:
                        self.failures.setdefault(self._state, set()).add(("item", name))
                left = left & ~bit
        if passes:
            codes = end_codes
            for effect in getattr(choice, "effects", ()):  # run when it is taken (issue 13.3)
                left, codes = self._effect(effect, left, codes)
            yield target, left, codes

    def _effect(self, statement, items: int, codes: int) -> tuple[int, int]:
        """The items and codewords after one effect of a choice."""
        kind = type(statement)
        if kind is ast.GainItem:
            return items | self.item_bit.get(fold(statement.item), 0), codes
        if kind is ast.LoseItem:
            return items & ~self.item_bit.get(fold(statement.item), 0), codes
        if kind is ast.SetCodeword:
            return items, codes | self.code_bit.get(fold(statement.codeword), 0)
        if kind is ast.ClearCodeword:
            return items, codes & ~self.code_bit.get(fold(statement.codeword), 0)
        if kind is ast.SetFlag:
            return items, codes | self.code_bit.get(flag_key(statement.name), 0)
        if kind is ast.ClearFlag:
            return items, codes & ~self.code_bit.get(flag_key(statement.name), 0)
        return items, codes

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


_PASS_THROUGH = (ast.Prose, ast.ChangeValue, ast.OpenWorld, ast.AllowRevisit, ast.MealRule)


def _relevant(body: tuple[ast.Statement, ...]) -> tuple[ast.Statement, ...]:
    """The body without the statements that change neither the flow nor items/codewords."""
    return tuple(statement for statement in body if not isinstance(statement, _PASS_THROUGH))
