"""Loops of forced jumps: paragraphs the game passes through forever with nothing to decide.

A paragraph is *forced* when it asks the reader nothing (no choice, fight, shop, wager or
hidden number). A set of forced paragraphs every way out of which leads back into the set
is a trap: once the game enters it, it never asks again and never ends. E070 reports each
cycle of such a trap, at the jump that closes it; W071 a forced cycle whose only ways out
are ``if`` jumps on a state the loop itself never changes (entered with the condition
false, it never ends), and E070 again when those conditions can never hold (a codeword no
paragraph sets, an item no paragraph gives).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dedale import ast
from dedale.i18n import tr
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, Node, header_span, walk
from dedale.validator.test_forms import asks as test_asks

ASKING = (ast.Choice, ast.Fight, ast.HiddenNumber, ast.Shop, ast.Wager, ast.WatchedWager)
BRANCHING = (ast.Test, ast.DuoTest, ast.D20Test, ast.RandomRoll)
OUT = -1  # a way out of the paragraph that leads to no paragraph (an ending, a dead end)
Key = tuple[str, object]  # what a condition reads or a statement changes


@dataclass(frozen=True, slots=True)
class Exit:
    """One way out of a forced paragraph: where it leads, and the ``if`` conditions that
    must hold for the game to take it (empty: always possible)."""

    target: int
    span: Span
    guards: tuple[ast.Condition, ...] = ()


def asks(paragraph: ast.Paragraph) -> bool:
    """True when the paragraph can ask the reader something."""
    return any(isinstance(s, ASKING) or test_asks(s) for s in walk(paragraph.body))


def _guards(
    statements: Iterable[ast.Statement], guards: tuple[ast.Condition, ...], into: dict
) -> None:
    """The ``if`` conditions around each jump and ending, by span."""
    for statement in statements:
        if isinstance(statement, ast.If):
            _guards(statement.then, (*guards, statement.condition), into)
            negated = ast.Not(span=statement.condition.span, operand=statement.condition)
            _guards(statement.otherwise, (*guards, negated), into)
        elif isinstance(statement, BRANCHING):
            for branch in statement.branches:
                _guards(branch.body, guards, into)
        elif isinstance(statement, ast.Goto | ast.Ending):
            into.setdefault(statement.span, guards)


def exits(node: Node) -> list[Exit]:
    """Every way out of a forced paragraph."""
    guards: dict[Span, tuple[ast.Condition, ...]] = {}
    _guards(node.paragraph.body, (), guards)
    found = [
        Exit(edge.target if edge.target is not None else OUT, edge.span, guards.get(edge.span, ()))
        for edge in node.edges
    ]
    header = header_span(node.paragraph)
    if node.endings:
        ending_guards = [g for s, g in guards.items() if _is_ending(node, s)] or [()]
        found += [Exit(OUT, header, g) for g in ending_guards]
    if node.stuck or node.computed:
        found.append(Exit(OUT, header))
    return found


def _is_ending(node: Node, span: Span) -> bool:
    return any(isinstance(s, ast.Ending) and s.span == span for s in walk(node.paragraph.body))


def _trap(candidates: dict[int, list[Exit]], counts) -> set[int]:
    """The largest set of candidates none of whose counted exits leaves the set (a
    worklist: each paragraph leaves the set once, then its predecessors are looked at)."""
    inside = set(candidates)
    predecessors: dict[int, set[int]] = {}
    for number, ways in candidates.items():
        for way in ways:
            if counts(way):
                predecessors.setdefault(way.target, set()).add(number)
    queue = [
        number
        for number, ways in candidates.items()
        if any(counts(e) and e.target not in inside for e in ways)
    ]
    while queue:
        number = queue.pop()
        if number not in inside:
            continue
        inside.discard(number)
        queue.extend(p for p in predecessors.get(number, ()) if p in inside)
    return inside


def _cycles(members: set[int], candidates: dict[int, list[Exit]]) -> list[list[int]]:
    """The strongly connected components of ``members`` that hold a cycle (Tarjan)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    stack: list[int] = []
    on_stack: set[int] = set()
    found: list[list[int]] = []

    def targets(number: int) -> list[int]:
        return sorted({e.target for e in candidates[number] if e.target in members})

    for root in sorted(members):
        if root in index:
            continue
        work = [(root, iter(targets(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            number, pending = work[-1]
            step = next(pending, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(targets(step))))
                elif step in on_stack:
                    low[number] = min(low[number], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[number])
            if low[number] == index[number]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == number:
                        break
                if len(component) > 1 or number in targets(number):
                    found.append(sorted(component))
    return found


def _path(component: list[int], candidates: dict[int, list[Exit]]) -> tuple[list[int], Exit]:
    """A cycle through the smallest paragraph of ``component``, and the jump closing it."""
    start = component[0]
    inside = set(component)
    previous: dict[int, tuple[int, Exit]] = {}
    queue = [start]
    for number in queue:
        for exit_ in candidates[number]:
            if exit_.target == start:
                path = [number]
                while path[-1] != start:
                    path.append(previous[path[-1]][0])
                return [*reversed(path), start], exit_
            if exit_.target in inside and exit_.target not in previous:
                previous[exit_.target] = (number, exit_)
                queue.append(exit_.target)
    raise AssertionError("a strongly connected component always holds a cycle")


def describe(condition: ast.Condition) -> str:
    """A condition as an author would write it (for messages)."""
    if isinstance(condition, ast.HasCodeword):
        return tr("codeword {name}", name=condition.codeword)
    if isinstance(condition, ast.HasItem):
        return condition.item if condition.count == 1 else f"{condition.count} {condition.item}"
    if isinstance(condition, ast.Compare):
        return f"{_expr(condition.left)} {condition.op} {_expr(condition.right)}"
    if isinstance(condition, ast.Visited):
        target = condition.paragraph.number or condition.paragraph.label
        return tr("visited {paragraph}", paragraph=target)
    if isinstance(condition, ast.Not):
        return tr("not {condition}", condition=describe(condition.operand))
    if isinstance(condition, ast.And | ast.Or):
        parts = [describe(c) for c in condition.operands]
        return "(" + joined(parts, isinstance(condition, ast.And)) + ")"
    name = getattr(condition, "name", None) or getattr(condition, "world", "?")
    return str(name)


def joined(parts: list[str], both: bool) -> str:
    """``a and b and c`` (``both``) or ``a or b or c``, in the reader's words."""
    text = parts[0] if parts else ""
    for part in parts[1:]:
        if both:
            text = tr("{left} and {right}", left=text, right=part)
        else:
            text = tr("{left} or {right}", left=text, right=part)
    return text


def _expr(expr: ast.Expr) -> str:
    if isinstance(expr, ast.Num):
        return str(expr.value)
    if isinstance(expr, ast.ValueRef):
        return expr.name
    if isinstance(expr, ast.BinOp):
        return f"{_expr(expr.left)} {expr.op} {_expr(expr.right)}"
    if isinstance(expr, ast.DiceRoll):
        return expr.text
    if isinstance(expr, ast.ItemNumber):
        return expr.item
    return "[paragraph]" if isinstance(expr, ast.CurrentParagraph) else "?"


class _State:
    """What conditions read and statements change, by key, resolved through the ruleset."""

    def __init__(self, book: object) -> None:
        self.ruleset = getattr(book, "ruleset", None)

    def value(self, name: str) -> Key:
        found = self.ruleset.resolve(name) if hasattr(self.ruleset, "resolve") else None
        return ("value", found[1] if found else fold(name))

    def reads(self, condition: ast.Condition) -> set[Key]:
        if isinstance(condition, ast.HasCodeword):
            return {("codeword", fold(condition.codeword))}
        if isinstance(condition, ast.HasItem):
            return {("item", fold(condition.item))}
        if isinstance(condition, ast.Visited):
            return {("visited", condition.paragraph.number)}
        if isinstance(condition, ast.HasStatus):
            return {("status", fold(condition.name))}
        if isinstance(condition, ast.HasFlag):
            return {("flag", condition.name)}
        if isinstance(condition, ast.Compare):
            return self._expr_reads(condition.left) | self._expr_reads(condition.right)
        if isinstance(condition, ast.Not):
            return self.reads(condition.operand)
        if isinstance(condition, ast.And | ast.Or):
            return set().union(*(self.reads(c) for c in condition.operands))
        return set()  # a class, a World visited: never changed by a forced loop

    def _expr_reads(self, expr: ast.Expr) -> set[Key]:
        if isinstance(expr, ast.ValueRef):
            return {self.value(expr.name)}
        if isinstance(expr, ast.ItemNumber):
            return {("item", fold(expr.item))}
        if isinstance(expr, ast.DiceRoll | ast.LastRoll):  # ROLL: the paragraph's dice
            return {("random", None)}
        if isinstance(expr, ast.BinOp):
            return self._expr_reads(expr.left) | self._expr_reads(expr.right)
        return set()

    def changes(self, paragraph: ast.Paragraph) -> set[Key]:
        found: set[Key] = {("visited", paragraph.number), ("random", None)}
        for statement in walk(paragraph.body):
            if isinstance(statement, ast.SetCodeword | ast.ClearCodeword):
                found.add(("codeword", fold(statement.codeword)))
            elif isinstance(statement, ast.GainItem | ast.LoseItem):
                found.add(("item", fold(statement.item)))
            elif isinstance(statement, ast.ChangeValue | ast.ChangeCount):
                found.add(self.value(statement.name))
            elif isinstance(statement, ast.SetFlag | ast.ClearFlag):
                found.add(("flag", statement.name))
            elif isinstance(statement, ast.Penalty):  # "lose 2 SKILL until you find …"
                found.add(self.value(statement.stat))
            elif isinstance(statement, ast.WatchedWager):  # the stake is won or lost
                found.add(self.value(statement.counter))
            elif isinstance(statement, ast.StatusOn | ast.StatusOff):
                found |= {("status", fold(statement.name)), ("value", "*")}
            elif isinstance(statement, ast.Test | ast.DuoTest | ast.D20Test | ast.ForcedMeal):
                found.add(("value", "*"))  # a test may cost Luck; a meal changes provisions
        return found


def _possible(condition: ast.Condition, given: set[Key]) -> bool:
    """False when the condition can never hold (needs a codeword or item nothing gives)."""
    if isinstance(condition, ast.HasCodeword):
        return ("codeword", fold(condition.codeword)) in given
    if isinstance(condition, ast.HasItem):
        return ("item", fold(condition.item)) in given
    if isinstance(condition, ast.HasFlag):
        return ("flag", condition.name) in given
    if isinstance(condition, ast.And):
        return all(_possible(c, given) for c in condition.operands)
    if isinstance(condition, ast.Or):
        return any(_possible(c, given) for c in condition.operands)
    return True


def _given(graph: Graph, book: object) -> set[Key]:
    from dedale.validator.rules_checks import starting_items

    found: set[Key] = {("item", name) for name in starting_items(book)}
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.SetCodeword):
                found.add(("codeword", fold(statement.codeword)))
            elif isinstance(statement, ast.SetFlag):
                found.add(("flag", statement.name))
            elif isinstance(statement, ast.GainItem):
                found.add(("item", fold(statement.item)))
            elif isinstance(statement, ast.Shop):
                found |= {("item", fold(o.goods.item)) for o in statement.offers}
    return found


def forced_candidates(graph: Graph) -> dict[int, list[Exit]]:
    """The ways out of every paragraph that asks the reader nothing."""
    return {number: exits(node) for number, node in graph.nodes.items() if not asks(node.paragraph)}


def has_forced_cycle(graph: Graph) -> bool:
    """True when some cycle of paragraphs asks nothing (a random game could loop in it)."""
    candidates = forced_candidates(graph)
    return bool(_cycles(set(candidates), candidates))


def forced_loops(graph: Graph, book: object) -> list[Finding]:
    """E070 and W071: loops of forced jumps (see the module's docstring)."""
    candidates = forced_candidates(graph)
    certain = _trap(candidates, lambda e: True)
    found = []
    for component in _cycles(certain, candidates):
        found.append(_finding("E070", component, candidates, (), certain))
    on_state = _trap(candidates, lambda e: not e.guards)
    state = _State(book)
    given = _given(graph, book)
    for component in _cycles(on_state, candidates):
        if set(component) <= certain:
            continue
        inside = set(component)
        ways_out = [
            e for n in component for e in candidates[n] if e.target not in inside and e.guards
        ]
        changed = set().union(*(state.changes(graph.nodes[n].paragraph) for n in component))
        read = set().union(*(state.reads(g) for e in ways_out for g in e.guards))
        if read & changed or (("value", "*") in changed and any(k[0] == "value" for k in read)):
            continue  # the loop changes what its way out reads: it may end by itself
        impossible = not any(all(_possible(g, given) for g in e.guards) for e in ways_out)
        code = "E070" if impossible else "W071"
        found.append(_finding(code, component, candidates, ways_out, set(component)))
    return found


def _finding(code: str, component, candidates, ways_out: list[Exit], trap: set[int]) -> Finding:
    """The finding of one loop (``trap``: the paragraphs a game entering it stays in)."""
    path, closing = _path(component, candidates)
    trail = " → ".join(map(str, path))
    data = {"cycle": path, "trap": sorted(trap)}
    if not ways_out:
        return finding(
            code,
            tr("paragraphs {trail} loop with nothing to decide", trail=trail),
            closing.span,
            paragraph=path[-2],
            hint=tr("give one of these paragraphs a choice, or a jump out of the loop"),
            **data,
        )
    ways = sorted(
        {joined([describe(g) for g in e.guards], True) for e in ways_out},
    )
    conditions = joined(ways, False)
    if code == "E070":
        message = tr(
            "paragraphs {trail} loop with nothing to decide: the only way out needs "
            "{conditions}, which no paragraph gives",
            trail=trail,
            conditions=conditions,
        )
        hint = tr("give what the way out needs before the loop, or add a choice to the loop")
    else:
        message = tr(
            "paragraphs {trail} loop with nothing to decide unless {conditions} holds when "
            "the game enters them (nothing in the loop changes it)",
            trail=trail,
            conditions=conditions,
        )
        hint = tr("add a choice or an unconditional jump out of the loop")
    return finding(code, message, closing.span, paragraph=path[-2], hint=hint, **data)


LARGE_STAT = 1_000  # an enemy stat above this may make a random game's fight endless


def needs_guard(graph: Graph) -> bool:
    """True when random games of this book may run long with no question asked (a cycle
    of forced paragraphs, an enemy with a huge stat): they are then played counting the
    events between two questions (see :func:`dedale.validator.playthroughs.play_one`)."""
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.Fight) and any(
                isinstance(value, int) and abs(value) > LARGE_STAT
                for enemy in (*statement.enemies, *statement.allies)
                for _, value in enemy.stats
            ):
                return True
    return has_forced_cycle(graph)
