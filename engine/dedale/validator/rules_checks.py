"""Rules-aware checks: names the ruleset does not know, items and codewords needed but never
given (or given but never used), and choices into a World already visited on every path."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field

from dedale import ast
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, atoms, walk

Site = tuple[int, Span, str]  # paragraph number, where, the name as written


@dataclass(slots=True)
class Uses:
    """Where each item and codeword (by folded name) is given, needed or otherwise used."""

    items_given: dict[str, list[Site]] = field(default_factory=dict)
    items_needed: dict[str, list[Site]] = field(default_factory=dict)
    items_used: set[str] = field(default_factory=set)  # lost, or with effects in fights
    codewords_set: dict[str, list[Site]] = field(default_factory=dict)
    codewords_tested: dict[str, list[Site]] = field(default_factory=dict)


def starting_items(book: object) -> set[str]:
    """Folded names of items the hero may start with (class kits, book.yaml ``items``)."""
    ruleset = getattr(book, "ruleset", None)
    names = {
        fold(item) for cls in (getattr(ruleset, "classes", None) or {}).values() for item in cls.kit
    }
    meta = getattr(book, "meta", None)
    items = meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)
    names.update(fold(str(item)) for item in items or ())
    return names


def _add(table: dict[str, list[Site]], number: int, span: Span, name: str) -> None:
    table.setdefault(fold(name), []).append((number, span, name))


def collect_uses(graph: Graph) -> Uses:
    """Scan every paragraph for item and codeword operations."""
    uses = Uses()
    for number, node in graph.nodes.items():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.GainItem):
                _add(uses.items_given, number, statement.span, statement.item)
                if statement.weapon or statement.effects:
                    uses.items_used.add(fold(statement.item))
            elif isinstance(statement, ast.LoseItem):
                uses.items_used.add(fold(statement.item))
            elif isinstance(statement, ast.SetCodeword):
                _add(uses.codewords_set, number, statement.span, statement.codeword)
            elif isinstance(statement, ast.Choice):
                for cost in statement.costs:
                    if cost.item is not None:
                        _add(uses.items_needed, number, cost.span, cost.item)
            if isinstance(statement, ast.Choice | ast.If) and statement.condition is not None:
                for atom in atoms(statement.condition):
                    if isinstance(atom, ast.HasItem):
                        _add(uses.items_needed, number, atom.span, atom.item)
                    elif isinstance(atom, ast.HasCodeword):
                        _add(uses.codewords_tested, number, atom.span, atom.codeword)
    return uses


def items_and_codewords(graph: Graph, book: object, uses: Uses) -> Iterator[Finding]:
    """E023, E024, I025, I026."""
    start = starting_items(book)
    ruleset = getattr(book, "ruleset", None)
    for name, sites in uses.items_needed.items():
        if name not in uses.items_given and name not in start:
            for number, span, written in sites:
                yield finding(
                    "E023",
                    f"item '{written}' is needed here but no paragraph gives it",
                    span,
                    paragraph=number,
                    hint=f"give it somewhere with '> take {written}' ('> prenez {written}')",
                )
    for name, sites in uses.codewords_tested.items():
        if name not in uses.codewords_set:
            for number, span, written in sites:
                yield finding(
                    "E024",
                    f"codeword '{written}' is tested here but no paragraph sets it",
                    span,
                    paragraph=number,
                    hint=f"set it somewhere with '> set codeword {written}'",
                )
    for name, sites in uses.items_given.items():
        known = ruleset.item(name) if ruleset is not None and hasattr(ruleset, "item") else None
        used = (
            name in uses.items_needed
            or name in uses.items_used
            or (known is not None and known.kind != "other")
        )
        if not used:
            number, span, written = sites[0]
            yield finding(
                "I025",
                f"item '{written}' is given here but never needed, lost or used in a fight",
                span,
                paragraph=number,
            )
    for name, sites in uses.codewords_set.items():
        if name not in uses.codewords_tested:
            number, span, written = sites[0]
            yield finding(
                "I026",
                f"codeword '{written}' is set here but never tested",
                span,
                paragraph=number,
            )


def _names_in_expr(expr: ast.Expr | None) -> Iterator[ast.ValueRef]:
    if isinstance(expr, ast.ValueRef):
        yield expr
    elif isinstance(expr, ast.BinOp):
        yield from _names_in_expr(expr.left)
        yield from _names_in_expr(expr.right)


def unknown_names(graph: Graph, book: object) -> Iterator[Finding]:
    """E020 (stat), E021 (counter), E022 (class): names the ruleset does not define."""
    ruleset = getattr(book, "ruleset", None)
    if ruleset is None or not hasattr(ruleset, "resolve"):
        return
    classes = {
        fold(written)
        for cls in (ruleset.classes or {}).values()
        for written in (cls.id, *cls.names.values())
    }

    def value(name: str, span: Span, number: int, kinds=("stat", "counter")):
        found = ruleset.resolve(name)
        if found is None or found[0] not in kinds:
            code = "E021" if kinds == ("counter",) else "E020"
            what = " or ".join(kinds)
            yield finding(
                code,
                f"unknown {what} '{name}' in ruleset {ruleset.name}",
                span,
                paragraph=number,
                hint="names come from the ruleset (see `dedale odds --help` or docs/rulesets.md)",
            )

    for number, node in graph.nodes.items():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.ChangeValue):
                yield from value(statement.name, statement.span, number)
                for ref in _names_in_expr(statement.amount):
                    yield from value(ref.name, ref.span, number)
            elif isinstance(statement, ast.DuoTest):
                for stat in statement.stats:
                    yield from value(stat, statement.span, number, ("stat",))
            elif isinstance(statement, ast.D20Test):
                yield from value(statement.stat, statement.span, number, ("stat",))
            elif isinstance(statement, ast.GainItem):
                for effect in statement.effects:
                    if effect.stat is not None:
                        yield from value(effect.stat, effect.span, number, ("stat",))
            elif isinstance(statement, ast.Choice):
                for cost in statement.costs:
                    if cost.counter is not None:
                        yield from value(cost.counter, cost.span, number, ("counter",))
            for target in _destinations(statement):
                if isinstance(target, ast.ComputedRef):
                    for ref in _names_in_expr(target.expr):
                        yield from value(ref.name, ref.span, number)
            condition = getattr(statement, "condition", None)
            if isinstance(statement, ast.Choice | ast.If) and condition is not None:
                for atom in atoms(condition):
                    if isinstance(atom, ast.Compare):
                        for side in (atom.left, atom.right):
                            for ref in _names_in_expr(side):
                                yield from value(ref.name, ref.span, number)
                    elif isinstance(atom, ast.HasClass) and fold(atom.name) not in classes:
                        yield finding(
                            "E022",
                            f"unknown class '{atom.name}' in ruleset {ruleset.name}",
                            atom.span,
                            paragraph=number,
                            hint="classes: " + (", ".join(sorted(ruleset.classes)) or "none"),
                        )


def _destinations(statement: ast.Statement) -> Iterator[ast.Destination]:
    if isinstance(statement, ast.Choice | ast.Goto):
        yield statement.target
    elif isinstance(statement, ast.Fight):
        for ref in (statement.win, statement.lose):
            if ref is not None:
                yield ref
        if statement.escape is not None:
            yield statement.escape.target
        if statement.assault_limit is not None:
            yield statement.assault_limit.target


def worlds(graph: Graph) -> Iterator[Finding]:
    """W027: a choice into a World's first paragraph when that World is already visited on
    every path to the choice (and revisits are not allowed there)."""
    opens: dict[int, str] = {}
    allow: set[int] = set()
    for number, node in graph.nodes.items():
        for statement in node.paragraph.body:
            if isinstance(statement, ast.OpenWorld):
                opens[number] = fold(statement.world)
            elif isinstance(statement, ast.AllowRevisit):
                allow.add(number)
    if not opens or graph.start is None or graph.start not in graph.nodes:
        return
    # must-analysis: worlds surely visited on arriving at each paragraph
    before: dict[int, frozenset[str]] = {graph.start: frozenset()}
    queue = deque([graph.start])
    while queue:
        number = queue.popleft()
        after = before[number] | ({opens[number]} if number in opens else frozenset())
        for target in set(graph.successors(number)):
            new = before[target] & after if target in before else after
            if before.get(target) != new:
                before[target] = new
                queue.append(target)
    for number, node in graph.nodes.items():
        if number not in before or number in allow:
            continue
        visited = before[number] | ({opens[number]} if number in opens else set())
        for edge in node.edges:
            if edge.kind != "choice" or edge.choice is None or edge.choice.revisit:
                continue
            world = opens.get(edge.target) if edge.target is not None else None
            if world is not None and world in visited and edge.target != number:
                yield finding(
                    "W027",
                    f"every path here has already visited the World of paragraph "
                    f"{edge.target}: this choice can never be taken",
                    edge.span,
                    paragraph=number,
                    hint="add '(revisit)' to the choice or '> allow revisit' to the paragraph",
                )


def check_rules(graph: Graph, book: object, uses: Uses) -> list[Finding]:
    """Every rules-aware finding (state-aware reachability lives in state_reach)."""
    found = list(unknown_names(graph, book))
    found += items_and_codewords(graph, book, uses)
    found += worlds(graph)
    return found
