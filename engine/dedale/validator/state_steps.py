"""What one state of the state-aware explorer leads to (see
:mod:`dedale.validator.state_explorer`): a paragraph's body run symbolically on the items and
codewords held — item and codeword operations change them, choices and ``if`` whose
conditions test them are taken only when the state allows it, everything else may go
either way — and each paragraph's cached effect on the atoms it touches (compact mode).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from dedale import ast
from dedale.language.order import is_rule
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.book_state_checks import flag_key
from dedale.validator.graph import atoms, constant_value, resolve, some_roll_unmatched, walk

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


class StateSteps:
    """Mixed into ``Explorer``: the successors of a state (its bitsets, gates, bodies and
    effect caches are the explorer's)."""

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


_PASS_THROUGH = (ast.Prose, ast.ChangeValue, ast.OpenWorld, ast.AllowRevisit, ast.MealRule)


def _relevant(body: tuple[ast.Statement, ...]) -> tuple[ast.Statement, ...]:
    """The body without the statements that change neither the flow nor items/codewords."""
    return tuple(statement for statement in body if not isinstance(statement, _PASS_THROUGH))
