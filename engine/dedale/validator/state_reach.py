"""State-aware reachability over items and codewords.

The explorer walks (paragraph, items held, codewords set) states from the start, running
each paragraph body symbolically: item and codeword operations change the state, choices
and ``if`` whose conditions test items or codewords are taken only when the state allows
it, and everything else (stats, dice, visited paragraphs) may go either way. Only the items
and codewords that some condition tests are tracked, which keeps the state space small.

A *gate* is a condition the explorer met. A gate that is false in every state reaching it
is never passable: if it stands between the reader and every victory, that is E028 (the
item or codeword it needs is obtainable only on paths that avoid this point); otherwise W029.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from dedale import ast
from dedale.i18n import tr
from dedale.language.order import is_rule
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.book_state_checks import flag_key, flag_sites
from dedale.validator.budget import CLOCK_EVERY, STATES_SECONDS, Deadline, budget_finding
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import (
    Graph,
    atoms,
    constant_value,
    resolve,
    some_roll_unmatched,
    walk,
)
from dedale.validator.rules_checks import Uses, starting_items

MAX_STATES = 200_000

# (paragraph, items held, codewords set, the class's folded names: empty when unknown)
State = tuple[int, frozenset[str], frozenset[str], frozenset[str]]
Flow = tuple[frozenset[str], frozenset[str], tuple[ast.Choice | ast.HiddenNumber, ...]]

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

    # ----------------------------------------------------------------- conditions
    def value(self, condition: ast.Condition, items, codes) -> bool | None:
        if isinstance(condition, ast.HasItem):
            held = fold(condition.item) in items
            return UNKNOWN if held and condition.count > 1 else held  # "if 2 Torches"
        if isinstance(condition, ast.HasCodeword):
            return fold(condition.codeword) in codes
        if isinstance(condition, ast.HasFlag):  # the book's flags: tracked as codewords
            return flag_key(condition.name) in codes
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
                if (isinstance(a, ast.HasItem) and fold(a.item) not in items)
                or (isinstance(a, ast.HasCodeword) and fold(a.codeword) not in codes)
            } | {
                ("flag", a.name)
                for a in atoms(condition)
                if isinstance(a, ast.HasFlag) and flag_key(a.name) not in codes
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
            name = fold(statement.item)
            held = (items | {name}) if name in self.items else items
            yield "fall", (held, codes, choices)
            if number in self.may_drop:  # over the inventory limit: any item may be dropped
                for dropped in sorted(held):
                    yield "fall", (held - {dropped}, codes, choices)
        elif isinstance(statement, ast.LoseItem):
            yield "fall", (items - {fold(statement.item)}, codes, choices)
        elif isinstance(statement, ast.SetCodeword):
            name = fold(statement.codeword)
            yield "fall", (items, (codes | {name}) if name in self.codewords else codes, choices)
        elif isinstance(statement, ast.ClearCodeword):
            yield "fall", (items, codes - {fold(statement.codeword)}, choices)
        elif isinstance(statement, ast.SetFlag):
            name = flag_key(statement.name)
            yield "fall", (items, (codes | {name}) if name in self.codewords else codes, choices)
        elif isinstance(statement, ast.ClearFlag):
            yield "fall", (items, codes - {flag_key(statement.name)}, choices)
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
            bought = {
                fold(offer.goods.item)
                for offer in statement.offers
                if isinstance(offer.goods, ast.GainItem)
            } & self.items
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

    def successors(self, state: State) -> Iterator[tuple[int | None, frozenset, frozenset]]:
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
        left = end_items
        for cost in getattr(choice, "costs", ()):
            if cost.item is not None:
                name = fold(cost.item)
                if name in self.items and name not in end_items:
                    passes = False
                    if self.record and self._state is not None:
                        self.failures.setdefault(self._state, set()).add(("item", name))
                left = left - {name}
        if passes:
            codes = end_codes
            for effect in getattr(choice, "effects", ()):  # run when it is taken (issue 13.3)
                left, codes = self._effect(effect, left, codes)
            yield target, left, codes

    def _effect(self, statement, items: frozenset[str], codes: frozenset[str]):
        """The items and codewords after one effect of a choice."""
        kind = type(statement)
        if kind is ast.GainItem and fold(statement.item) in self.items:
            return items | {fold(statement.item)}, codes
        if kind is ast.LoseItem:
            return items - {fold(statement.item)}, codes
        if kind is ast.SetCodeword and fold(statement.codeword) in self.codewords:
            return items, codes | {fold(statement.codeword)}
        if kind is ast.ClearCodeword:
            return items, codes - {fold(statement.codeword)}
        if kind is ast.SetFlag and flag_key(statement.name) in self.codewords:
            return items, codes | {flag_key(statement.name)}
        if kind is ast.ClearFlag:
            return items, codes - {flag_key(statement.name)}
        return items, codes

    def explore(self, starts: list[State]) -> None:
        queue = deque(state for state in starts if state[0] in self.graph.nodes)
        self.seen.update(queue)
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
                    if len(self.seen) >= MAX_STATES:
                        self.truncated = True
                        return
                    if len(self.seen) % CLOCK_EVERY == 0 and self.deadline.passed():
                        self.truncated = self.timed_out = True
                        return
                    self.seen.add(nxt)
                    queue.append(nxt)


_PASS_THROUGH = (ast.Prose, ast.ChangeValue, ast.OpenWorld, ast.AllowRevisit, ast.MealRule)


def _relevant(body: tuple[ast.Statement, ...]) -> tuple[ast.Statement, ...]:
    """The body without the statements that change neither the flow nor items/codewords."""
    return tuple(statement for statement in body if not isinstance(statement, _PASS_THROUGH))


def over_the_limit(graph: Graph, book: object) -> set[int]:
    """Paragraphs whose gains may pass the ruleset's inventory limit: the items some path
    may bring there, and those the paragraph gives, are more than the limit."""
    from dedale.validator.loadout import maybe_held

    limit = getattr(getattr(book, "ruleset", None), "inventory_limit", None)
    if limit is None:
        return set()
    held, gains = maybe_held(graph, book)
    return {n for n, given in gains.items() if given and len(held.get(n, set()) | given) > limit}


def _kits(ruleset: object, items: set[str]) -> dict[frozenset[str], frozenset[str]]:
    """Each class (by its folded names) and the tracked items of its kit; one hero of no
    known class and no kit when the ruleset has no classes."""
    kits = {}
    for cls in (getattr(ruleset, "classes", None) or {}).values():
        names = frozenset(fold(written) for written in (cls.id, *cls.names.values()))
        kits[names] = frozenset(fold(item) for item in cls.kit) & items
    return kits or {frozenset(): frozenset()}


def explore_states(
    graph: Graph,
    book: object,
    uses: Uses,
    hidden: tuple[int, ...],
    seconds: float | None = STATES_SECONDS,
    record: bool = False,
) -> Explorer | None:
    """Explore the (paragraph, items, codewords, class) states from the start and the
    hidden paragraphs; None when no item or codeword is ever tested."""
    items = set(uses.items_needed)
    codewords = set(uses.codewords_tested)
    flags = flag_sites(graph, book)  # the book's own flags, tracked as codewords
    codewords |= {flag_key(name) for name in flags[1]}
    if graph.start not in graph.nodes or not (items or codewords):
        return None
    start_items = starting_items(book)
    kits = _kits(getattr(book, "ruleset", None), items)
    base = frozenset(start_items & items) - frozenset().union(*kits.values())
    starts = [(graph.start, base | kit, frozenset(), names) for names, kit in kits.items()]
    starts += [
        (number, base, frozenset(), names)
        for number in hidden
        if number in graph.nodes
        for names in kits
    ]
    explorer = Explorer(graph, book, items, codewords)
    explorer.deadline = Deadline(seconds)
    explorer.record = record
    explorer.may_drop = over_the_limit(graph, book)
    explorer.explore(starts)
    return explorer


def check_states(
    graph: Graph,
    book: object,
    uses: Uses,
    hidden: tuple[int, ...],
    seconds: float | None = STATES_SECONDS,
    explorer: Explorer | None = None,
) -> list[Finding]:
    """E028, W029 (and I050 when the state space is too large to explore, I051 when
    exploring takes more than ``seconds``), from ``explorer`` if given (see explore_states)."""
    if explorer is None:
        explorer = explore_states(graph, book, uses, hidden, seconds)
    if explorer is None:
        return []
    start_items = starting_items(book)
    flags = flag_sites(graph, book)  # the book's own flags (where each is noted)
    if explorer.timed_out:
        what = tr("state-aware checks (E028, W029)")
        states = tr("states")
        return [budget_finding(what, len(explorer.seen), None, explorer.deadline.seconds, states)]
    if explorer.truncated:
        return [
            finding(
                "I050",
                tr(
                    "more than {limit} item/codeword states: state-aware checks skipped",
                    limit=MAX_STATES,
                ),
                None,
            )
        ]
    victories = [n for n, node in graph.nodes.items() if "victory" in node.endings]
    plain_victory = bool(victories) and graph.start in graph.reaching(victories)
    state_victory = any(n in explorer.reached for n in victories)
    leads_to_victory = graph.reaching(victories)
    found = []
    for gate in explorer.gates.values():
        if gate.passable or not gate.missing:
            continue
        obtainable = [
            (kind, name)
            for kind, name in sorted(gate.missing)
            if (
                kind != "flag"
                and fold(name) in (uses.items_given if kind == "item" else uses.codewords_set)
            )
            or (kind == "item" and fold(name) in start_items)
            or (kind == "flag" and name in flags[0])
        ]
        if not obtainable:
            continue  # never given anywhere: E023/E024 already say so
        needed = tr(" and ").join(
            tr("item '{name}'", name=name)
            if kind == "item"
            else tr("flag '{name}'", name=name)
            if kind == "flag"
            else tr("codeword '{name}'", name=name)
            for kind, name in obtainable
        )
        where = _giving_paragraphs(uses, obtainable, flags[0])
        blocks_victory = (
            plain_victory and not state_victory and any(t in leads_to_victory for t in gate.targets)
        )
        code = "E028" if blocks_victory else "W029"
        lead = (
            tr(
                "victory needs {needed} here, but no path to paragraph {number} "
                "obtains it (given only in {where})",
                needed=needed,
                number=gate.paragraph,
                where=where,
            )
            if blocks_victory
            else tr(
                "this needs {needed} here, but no path to paragraph {number} "
                "obtains it (given only in {where})",
                needed=needed,
                number=gate.paragraph,
                where=where,
            )
        )
        found.append(
            finding(
                code,
                lead,
                gate.span,
                paragraph=gate.paragraph,
                hint=tr("make it obtainable on a path through here, or give another way on"),
            )
        )
    return found


def _giving_paragraphs(uses: Uses, wanted: list[tuple[str, str]], flags=None) -> str:
    numbers: set[int] = set()
    for kind, name in wanted:
        if kind == "flag":
            numbers.update((flags or {}).get(name, ()))
            continue
        table = uses.items_given if kind == "item" else uses.codewords_set
        numbers.update(number for number, _, _ in table.get(fold(name), ()))
    if not numbers:
        return tr("the starting kit")
    shown = sorted(numbers)
    return ", ".join(map(str, shown[:6])) + (", ..." if len(shown) > 6 else "")
