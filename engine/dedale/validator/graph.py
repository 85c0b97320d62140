"""The paragraph graph: where each paragraph can lead, and how its body can end.

Edges come from choices, gotos, test and table branches, fight destinations and ``if``
bodies. A computed destination (``go to gold + 50``) has a target only when its value is a
constant; otherwise it is kept apart (``computed``) so that declared hidden paragraphs can
count as reachable. ``stuck`` tells whether some path through the body reaches its end
without leaving and without a choice offered (a dead end). Statements after one that always
leaves (``go to``, an ending) are never run and give no edge. Issue 8 destinations are
resolved to every paragraph they may name: ``[noted cave]`` to each paragraph that notes
``cave``, ``[previous]`` (``go back``) to each predecessor, and a hidden-number prompt to
its own answers (or, without, to every ``> hidden paragraph``), its wrong-number lines and
its fallback.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from dedale import ast
from dedale.errors import DedaleError
from dedale.language.order import is_rule
from dedale.rules.dice import parse_dice
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.test_forms import ends_here, modifier_conditions, outcomes


@dataclass(frozen=True, slots=True)
class Edge:
    """One way from ``source`` to ``target`` (None: the destination names no paragraph)."""

    source: int
    target: int | None
    span: Span
    kind: str  # choice, goto, branch, fight-win, fight-lose, escape, limit, hidden
    ref: ast.Destination
    choice: ast.Choice | None = None


@dataclass(slots=True)
class Node:
    """What the validator knows of one paragraph's flow."""

    paragraph: ast.Paragraph
    edges: list[Edge] = field(default_factory=list)
    endings: set[str] = field(default_factory=set)
    computed: list[ast.ComputedRef] = field(default_factory=list)
    stuck: bool = False  # some path reaches the end of the body with no choice offered
    going_back: list[tuple[ast.ComputedRef, Span, str]] = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.paragraph.number

    @property
    def is_exit(self) -> bool:
        """The reader may leave the book here (an ending)."""
        return bool(self.endings)


@dataclass(slots=True)
class Graph:
    """Every paragraph's Node, plus predecessor lists."""

    nodes: dict[int, Node]
    start: int | None
    predecessors: dict[int, list[Edge]]

    def successors(self, number: int) -> Iterator[int]:
        for edge in self.nodes[number].edges:
            if edge.target is not None and edge.target in self.nodes:
                yield edge.target

    def reachable_from(self, roots: Iterable[int]) -> set[int]:
        """Paragraphs reachable from ``roots`` (roots included when they exist)."""
        seen = {root for root in roots if root in self.nodes}
        queue = deque(seen)
        while queue:
            for target in self.successors(queue.popleft()):
                if target not in seen:
                    seen.add(target)
                    queue.append(target)
        return seen

    def reaching(self, goals: Iterable[int]) -> set[int]:
        """Paragraphs from which one of ``goals`` can be reached (goals included)."""
        seen = {goal for goal in goals if goal in self.nodes}
        queue = deque(seen)
        while queue:
            for edge in self.predecessors.get(queue.popleft(), ()):
                if edge.source not in seen:
                    seen.add(edge.source)
                    queue.append(edge.source)
        return seen


def header_span(paragraph: ast.Paragraph) -> Span:
    """The position of a paragraph's header (``§ 12``), without its end."""
    span = paragraph.span
    return Span(span.file, span.line, span.column)


def resolve(book: object, ref: ast.ParagraphRef) -> int | None:
    """The paragraph number a reference names, or None when it names nothing."""
    if ref.number is not None:
        return ref.number
    if ref.label is None:
        return None
    by_label = getattr(book, "label_number", None)
    if by_label is not None:
        return by_label(ref.label)
    target = (getattr(book, "labels", None) or {}).get(ref.label)
    if isinstance(target, ast.Paragraph):
        return target.number
    return target if isinstance(target, int) else None


def constant_value(expr: ast.Expr, here: int) -> int | None:
    """The value of an expression when it does not depend on the game state."""
    if isinstance(expr, ast.Num):
        return expr.value
    if isinstance(expr, ast.CurrentParagraph):
        return here
    if isinstance(expr, ast.BinOp):
        left = constant_value(expr.left, here)
        right = constant_value(expr.right, here)
        return None if left is None or right is None else expr.apply(left, right)
    return None


def dice_bounds(text: str) -> tuple[int, int] | None:
    """(min, max) of a dice expression, None when it depends on the game (``1d6+SKILL``)."""
    try:
        expr = parse_dice(text)
    except DedaleError:
        return None
    return None if expr.names else (expr.min(), expr.max())


def uncovered(bounds: tuple[int, int], rows: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The intervals of ``bounds`` (low, high) no row (low, high) covers, by interval
    arithmetic: a row ``1-99999999999`` costs no more than ``1-6``."""
    gaps: list[tuple[int, int]] = []
    position = bounds[0]
    for low, high in sorted(row for row in rows if row[0] <= row[1]):
        if high < position:
            continue
        if low > bounds[1]:
            break
        if low > position:
            gaps.append((position, low - 1))
        position = max(position, high + 1)
        if position > bounds[1]:
            return gaps
    if position <= bounds[1]:
        gaps.append((position, bounds[1]))
    return gaps


def some_roll_unmatched(statement: ast.Test | ast.DuoTest | ast.D20Test | ast.RandomRoll) -> bool:
    """True when some outcome of a test (or total of a dice table) has no branch: the
    paragraph then goes on after the test."""
    if isinstance(statement, ast.RandomRoll):
        bounds = dice_bounds(statement.dice.text)
        if bounds is None:
            return False  # cannot tell; assume the author's table covers the roll
        rows = [(branch.low, branch.high) for branch in statement.branches]
        return bool(uncovered(bounds, rows))
    plain = {branch.outcome for branch in statement.branches if branch.margin is None}
    return not outcomes(statement) <= plain


MAX_WALKED = 50_000
"""Bodies whose walk is remembered at most (:func:`walk`); then the memo starts again."""
_WALKED: dict[int, tuple[tuple, tuple]] = {}


def walk(statements: Iterable[ast.Statement]) -> Iterator[ast.Statement]:
    """Every statement, nested ones (branch and ``if`` bodies) included.

    A body (a tuple of the frozen syntax tree) is walked once: about twenty checks walk
    every paragraph's body, and the walk of a tuple is remembered (with the tuple, so that
    its id stays its own), at most :data:`MAX_WALKED` of them."""
    if type(statements) is not tuple:
        return _walk(statements)
    found = _WALKED.get(id(statements))
    if found is not None and found[0] is statements:
        return iter(found[1])
    walked = tuple(_walk(statements))
    if len(_WALKED) >= MAX_WALKED:
        _WALKED.clear()
    _WALKED[id(statements)] = (statements, walked)
    return iter(walked)


def _walk(statements: Iterable[ast.Statement]) -> Iterator[ast.Statement]:
    for statement in statements:
        yield statement
        if isinstance(statement, ast.If):
            yield from _walk(statement.then)
            yield from _walk(statement.otherwise)
        elif isinstance(statement, ast.Test | ast.DuoTest | ast.D20Test | ast.RandomRoll):
            for branch in statement.branches:
                yield from _walk(branch.body)
        elif isinstance(statement, ast.Fight) and statement.assault_table is not None:
            for branch in statement.assault_table.branches:
                yield from _walk(branch.body)
        elif isinstance(statement, ast.HiddenNumber):  # what a wrong number does
            yield from _walk(statement.wrong)
        if isinstance(statement, ast.Fight):  # the effects of its enemies' events
            for rule in statement.rules:
                yield from _walk(e for e in rule.effects if isinstance(e, _PLAIN))
        elif isinstance(statement, ast.Shop):  # what a shop sells is given, what it buys used
            for offer in statement.offers:
                yield offer.goods
        elif isinstance(statement, ast.Choice) and statement.effects:  # run when taken
            yield from _walk(statement.effects)
        elif isinstance(statement, ast.MayTake):  # an item the reader may take is given
            yield statement.take


def conditions(statements: Iterable[ast.Statement]) -> Iterator[ast.Condition]:
    """Every condition (of choices and ``if``), each atom of and/or/not included."""
    for statement in walk(statements):
        condition = None
        if isinstance(statement, ast.Choice | ast.If | ast.HiddenNumber):
            condition = statement.condition
        if condition is not None:
            yield from atoms(condition)
        for condition in modifier_conditions(statement):  # "test your skill -1 if Dagger"
            yield from atoms(condition)
        if isinstance(statement, ast.Fight):  # the conditions of rules under an enemy
            for rule in statement.rules:
                if rule.condition is not None:
                    yield from atoms(rule.condition)


_PLAIN = (ast.Goto, ast.ChangeValue, ast.GainItem, ast.LoseItem, ast.SetCodeword,
          ast.ClearCodeword, ast.Ending, ast.StatusOn, ast.StatusOff, ast.SetFlag,
          ast.ClearFlag, ast.ChangeCount)  # fmt: skip
"""What a fight event's effects may hold besides the enemy's own (its stat, a wound)."""


def atoms(condition: ast.Condition) -> Iterator[ast.Condition]:
    """The condition and all its sub-conditions."""
    yield condition
    if isinstance(condition, ast.Not):
        yield from atoms(condition.operand)
    elif isinstance(condition, ast.And | ast.Or):
        for operand in condition.operands:
            yield from atoms(operand)


def path_ends(statements: tuple[ast.Statement, ...], offered: bool) -> set[bool]:
    """For the paths that run past the end of ``statements``: whether a choice has been
    offered on them (``offered``: whether one had been before). Empty: every path leaves."""
    states = {offered}
    for statement in statements:
        if is_rule(statement):
            states = {False}  # choices before a rule are offered there, not at the end
        if isinstance(statement, ast.Choice):
            states = {True}
        elif isinstance(statement, ast.Goto | ast.Ending):
            return set()
        elif isinstance(statement, ast.HiddenNumber):
            # a reader who does not know the number cannot take a hidden-number choice:
            # it offers nothing; the directive leaves unless it may read on
            after = {end for state in states for end in path_ends(statement.wrong, state)}
            if statement.offered:
                continue
            if statement.otherwise is not None or not after:
                return set()
            states = after
        elif isinstance(statement, ast.If):
            states = {
                end
                for state in states
                for body in (statement.then, statement.otherwise)
                for end in path_ends(body, state)
            }
        elif isinstance(statement, ast.Test | ast.DuoTest | ast.D20Test | ast.RandomRoll):
            after = {
                end
                for state in states
                for branch in statement.branches
                if ends_here(statement, branch)
                for end in path_ends(branch.body, state)
            }
            states = after | states if some_roll_unmatched(statement) else after
        elif isinstance(statement, ast.Fight) and statement.win is not None:
            return set()
        if not states:
            return set()
    return states


class _Builder:
    """Walks one paragraph's body, collecting its edges and endings."""

    def __init__(
        self, book: object, node: Node, marks=None, hidden=frozenset(), counters=None
    ) -> None:
        self.book = book
        self.node = node
        self.marks: dict[str, set[int]] = marks or {}
        self.hidden: frozenset[int] = hidden
        self.counters: dict[str, set[int] | None] = counters or {}

    def add(self, ref: ast.Destination, span: Span, kind: str, choice=None) -> None:
        number = self.node.number
        if isinstance(ref, ast.ComputedRef) and isinstance(ref.expr, ast.NotedParagraph):
            for noted in sorted(self.marks.get(fold(ref.expr.name), ())):
                self.node.edges.append(Edge(number, noted, span, kind, ref, choice))
            return
        if isinstance(ref, ast.ComputedRef) and isinstance(ref.expr, ast.PreviousParagraph):
            self.node.going_back.append((ref, span, kind))  # resolved once the graph is built
            return
        if isinstance(ref, ast.ComputedRef):
            value = constant_value(ref.expr, number)
            if value is None:
                from dedale.validator.values import possible_values

                values = possible_values(ref.expr, number, self.book, self.counters)
                paragraphs = getattr(self.book, "paragraphs", {}) or {}
                known = sorted(v for v in values or () if v in paragraphs)
                if not known:
                    self.node.computed.append(ref)
                for target in known:  # only the values that name a paragraph
                    self.node.edges.append(Edge(number, target, span, kind, ref, choice))
                return
            target: int | None = value
        else:
            target = resolve(self.book, ref)
        self.node.edges.append(Edge(number, target, span, kind, ref, choice))

    def block(self, statements: tuple[ast.Statement, ...]) -> bool:
        """Collect a statement list; True when some path runs past its end."""
        for statement in statements:
            if not self.statement(statement):
                # what follows a statement that always leaves is never run
                return False
        return True

    def statement(self, statement: ast.Statement) -> bool:
        """Collect one statement; True when some path continues after it."""
        if isinstance(statement, ast.Choice):
            self.add(statement.target, statement.span, "choice", statement)
        elif isinstance(statement, ast.Goto):
            self.add(statement.target, statement.span, "goto")
            return False
        elif isinstance(statement, ast.Ending):
            self.node.endings.add(statement.kind)
            return False
        elif isinstance(statement, ast.If):
            then = self.block(statement.then)
            otherwise = self.block(statement.otherwise)
            return then or otherwise
        elif isinstance(statement, ast.Test | ast.DuoTest | ast.D20Test | ast.RandomRoll):
            continues = [
                self.block(branch.body) and ends_here(statement, branch)
                for branch in statement.branches
            ]
            return any(continues) or some_roll_unmatched(statement)
        elif isinstance(statement, ast.Fight):
            return self.fight(statement)
        elif isinstance(statement, ast.HiddenNumber):
            return self.hidden_number(statement)
        return True

    def hidden_number(self, statement: ast.HiddenNumber) -> bool:
        """Edges to the prompt's answers (its own, or every hidden paragraph), its wrong
        lines and its fallback; True when the paragraph may read on after it."""
        if statement.answers is None:
            for hidden in sorted(self.hidden):
                ref = ast.ParagraphRef(span=statement.span, number=hidden)
                self.node.edges.append(
                    Edge(self.node.number, hidden, statement.span, "hidden", ref)
                )
        else:
            for ref in statement.answers:
                self.node.edges.append(
                    Edge(self.node.number, resolve(self.book, ref), statement.span, "hidden", ref)
                )
        continues = self.block(statement.wrong)
        if statement.otherwise is not None:
            self.add(statement.otherwise, statement.span, "goto")
            continues = False
        return continues or statement.offered

    def fight(self, fight: ast.Fight) -> bool:
        if fight.win is not None:
            self.add(fight.win, fight.span, "fight-win")
        if fight.lose is not None:
            self.add(fight.lose, fight.span, "fight-lose")
        else:
            self.node.endings.add("death")  # losing a fight with no destination kills
        if fight.escape is not None:
            self.add(fight.escape.target, fight.escape.span, "escape")
        if fight.assault_limit is not None:
            limit = fight.assault_limit
            self.add(limit.target, limit.span, "limit")
        for extra in (fight.threshold, fight.win_assaults):  # issue 8 fight extras
            if extra is not None:
                self.add(extra.target, extra.span, "limit")
        if fight.assault_table is not None:  # rows rolled each assault may turn away
            for branch in fight.assault_table.branches:
                self.block(branch.body)
        for rule in fight.rules:  # rules under an enemy: exits, and events' effects
            if rule.target is not None:
                self.add(rule.target, rule.span, "limit")
            if rule.effects:
                self.block(tuple(e for e in rule.effects if isinstance(e, _PLAIN)))
        return fight.win is None


def _marks_and_hidden(
    paragraphs: dict[int, ast.Paragraph],
) -> tuple[dict[str, set[int]], frozenset[int]]:
    """Where each name is noted (``note paragraph NAME``), and the declared hidden
    paragraphs (``> hidden paragraph``)."""
    marks: dict[str, set[int]] = {}
    hidden: set[int] = set()
    for number, paragraph in paragraphs.items():
        for statement in walk(paragraph.body):
            if isinstance(statement, ast.NoteParagraph):
                marks.setdefault(fold(statement.name), set()).add(number)
            elif isinstance(statement, ast.HiddenParagraph):
                hidden.add(number)
    return marks, frozenset(hidden)


def _counter_values(book: object, paragraphs: dict[int, ast.Paragraph]):
    """Counter values for computed destinations (only when the book has some)."""
    if not any(
        isinstance(s, ast.Choice | ast.Goto) and isinstance(s.target, ast.ComputedRef)
        for paragraph in paragraphs.values()
        for s in walk(paragraph.body)
    ):
        return {}
    from dedale.validator.values import counter_values

    return counter_values(book, paragraphs.values(), walk)


def _listed_hidden(book: object, paragraphs) -> frozenset[int]:
    """Paragraphs book.yaml lists under ``validator: hidden:`` (hidden numbers reach them
    too, as in the interpreter)."""
    meta = getattr(book, "meta", None)
    if isinstance(meta, dict):
        validator = meta.get("validator")
    else:
        validator = getattr(meta, "validator", None)
    listed = validator.get("hidden") if hasattr(validator, "get") else None
    if not isinstance(listed, list | tuple):
        return frozenset()
    return frozenset(n for n in listed if isinstance(n, int) and n in paragraphs)


def counter_values_of(book: object) -> dict:
    """The values each counter may hold, for computed destinations (see validator.values)."""
    return _counter_values(book, getattr(book, "paragraphs", {}) or {})


def declared_hidden(book: object) -> tuple[int, ...]:
    """The paragraphs a book declares hidden with ``> hidden paragraph``."""
    paragraphs: dict[int, ast.Paragraph] = getattr(book, "paragraphs", {}) or {}
    return tuple(sorted(_marks_and_hidden(paragraphs)[1]))


def build_graph(book: object) -> Graph:
    """The graph of every paragraph of ``book`` (``book.paragraphs``: number -> Paragraph)."""
    paragraphs: dict[int, ast.Paragraph] = getattr(book, "paragraphs", {}) or {}
    nodes: dict[int, Node] = {}
    predecessors: dict[int, list[Edge]] = {}
    marks, hidden = _marks_and_hidden(paragraphs)
    hidden |= _listed_hidden(book, paragraphs)
    counters = _counter_values(book, paragraphs)
    for number, paragraph in paragraphs.items():
        node = Node(paragraph)
        _Builder(book, node, marks, hidden, counters).block(paragraph.body)
        node.stuck = False in path_ends(paragraph.body, False)
        nodes[number] = node
        for edge in node.edges:
            if edge.target is not None:
                predecessors.setdefault(edge.target, []).append(edge)
    for number, node in nodes.items():  # "go back": to every paragraph that leads here
        for ref, span, kind in node.going_back:
            for source in sorted({edge.source for edge in predecessors.get(number, ())}):
                edge = Edge(number, source, span, kind, ref)
                node.edges.append(edge)
                predecessors.setdefault(source, []).append(edge)
    start = getattr(book, "start", None)
    if isinstance(start, ast.Paragraph):
        start = start.number
    return Graph(nodes, start if isinstance(start, int) else None, predecessors)
