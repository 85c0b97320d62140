"""Checks on the book's own flags and counters (book.yaml ``state:``, issue 13 §4).

* W094 — a flag is tested but no paragraph notes it: the condition is always false (or,
  under ``not``, always true);
* W095 — a flag is noted but nothing tests it and the sheet does not show it: noting it
  changes nothing the reader can see;
* W096 — a condition on a counter no path can meet: the counter can never reach (or leave)
  the value compared with. Its range is bounded from the book: it starts at ``start``; each
  ``add`` of a constant amount in a paragraph that cannot be entered twice adds that amount
  to the highest value; an ``add`` that may repeat (a paragraph on a loop, a fight's event) or
  of a rolled amount leaves it unbounded (up to ``max``); a ``remove`` or ``set`` lets it
  fall to 0;
* I097 — a declared flag or counter that no paragraph uses.

The state-aware explorer (:mod:`dedale.validator.state_reach`) also tracks flags as it
tracks codewords, so a flag noted only on paths that avoid its test gives W029/E028.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dedale import ast
from dedale.i18n import tr
from dedale.language.keywords import name_key
from dedale.limits import AMOUNT
from dedale.span import Span
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, atoms, constant_value, walk

_INTERPOLATION = re.compile(r"\{([^{}\n]{1,60})\}")
Site = tuple[int, Span, str]  # paragraph number, where, the name as written


@dataclass(slots=True)
class StateUses:
    """Where each declared flag and counter (by its declared name) is used."""

    flags_set: dict[str, list[Site]] = field(default_factory=dict)
    flags_tested: dict[str, list[Site]] = field(default_factory=dict)
    counts_changed: dict[str, list[tuple[int, ast.ChangeCount]]] = field(default_factory=dict)
    counts_read: dict[str, list[Site]] = field(default_factory=dict)
    compares: list[tuple[int, ast.Compare, str]] = field(default_factory=list)
    repeated: set[int] = field(default_factory=set)  # ids of changes a fight event repeats


def declared_state(book: object) -> Any:
    """The book's BookState (None for a book without one, or a test double)."""
    state = getattr(getattr(book, "meta", None), "state", None)
    return state if state else None


def _expressions(statement: Any) -> Iterator[ast.Expr]:
    """The expressions a statement reads (destinations, amounts)."""
    for name in ("target", "amount"):
        value = getattr(statement, name, None)
        if isinstance(value, ast.ComputedRef):
            yield value.expr
        elif value is not None and not isinstance(value, ast.ParagraphRef | str | int):
            yield value


def _refs(expr: Any) -> Iterator[ast.ValueRef]:
    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.ValueRef):
            yield node
        elif isinstance(node, ast.BinOp):
            stack += [node.left, node.right]


def _read_conditions(statement: Any) -> Iterator[ast.Condition]:
    """The atoms of the conditions a statement reads: a choice's or an ``if``'s, and a
    fight's rules under an enemy (``it takes all (if calmed)``, ``end the fight when bites >=
    2 -> 40``, an event's ``(if …)``)."""
    kind = type(statement)
    if kind in (ast.Choice, ast.If) and statement.condition is not None:
        yield from atoms(statement.condition)
    elif kind is ast.Fight:
        for rule in statement.rules:
            if rule.condition is not None:
                yield from atoms(rule.condition)


def collect_state_uses(graph: Graph, state: Any) -> StateUses:
    """Scan every paragraph for the uses of the declared flags and counters."""
    uses = StateUses()
    for number, node in graph.nodes.items():
        for statement in walk(node.paragraph.body):
            kind = type(statement)
            if kind is ast.Fight:  # an event acts at each assault it happens in
                for rule in statement.rules:
                    uses.repeated.update(id(e) for e in rule.effects)
            if kind is ast.SetFlag:
                uses.flags_set.setdefault(statement.name, []).append(
                    (number, statement.span, statement.name)
                )
            elif kind is ast.ChangeCount:
                uses.counts_changed.setdefault(statement.name, []).append((number, statement))
            if kind is ast.Prose and "{" in statement.text:  # "{lieutenants met}"
                for match in _INTERPOLATION.finditer(statement.text):
                    entry = state.counter(match.group(1).strip())
                    if entry is not None:
                        uses.counts_read.setdefault(entry.name, []).append(
                            (number, statement.span, entry.name)
                        )
            for expr in _expressions(statement):
                for ref in _refs(expr):
                    if state.counter(ref.name) is not None:
                        entry = state.counter(ref.name).name
                        uses.counts_read.setdefault(entry, []).append((number, ref.span, ref.name))
            for atom in _read_conditions(statement):
                if isinstance(atom, ast.HasFlag):
                    uses.flags_tested.setdefault(atom.name, []).append(
                        (number, atom.span, atom.name)
                    )
                elif isinstance(atom, ast.Compare):
                    for side in (atom.left, atom.right):
                        for ref in _refs(side):
                            entry = state.counter(ref.name)
                            if entry is not None:
                                uses.counts_read.setdefault(entry.name, []).append(
                                    (number, ref.span, ref.name)
                                )
                                uses.compares.append((number, atom, entry.name))
    return uses


def _on_a_loop(graph: Graph, number: int) -> bool:
    """Whether paragraph ``number`` may be entered more than once."""
    return number in graph.reachable_from(set(graph.successors(number)))


def counter_range(
    graph: Graph,
    entry: Any,
    changes: list[tuple[int, ast.ChangeCount]],
    repeated: set[int] = frozenset(),  # type: ignore[assignment]
):
    """(lowest, highest) value the counter may hold in play (see the module docstring);
    ``repeated``: the ids of changes that may act many times in one visit (a fight's
    events)."""
    top = entry.maximum if entry.maximum is not None else AMOUNT.high
    low, high = entry.start, entry.start
    loops: dict[int, bool] = {}
    for number, change in changes:
        amount = constant_value(change.amount, number)
        if change.op == "add":
            if number not in loops:
                loops[number] = _on_a_loop(graph, number)
            if amount is None or loops[number] or id(change) in repeated:
                high = top
            else:
                high += max(0, amount)
        elif change.op == "sub":
            low = 0
        else:  # set
            low = 0 if amount is None else min(low, amount)
            high = top if amount is None else max(high, amount)
    return max(0, low), min(top, high)


def _may_hold(op: str, low: int, high: int, value: int, counter_left: bool) -> bool:
    """Whether some counter value in [low, high] makes ``counter op value`` true (or
    ``value op counter`` when the counter is on the right)."""
    if not counter_left:
        op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
    if op == ">=":
        return high >= value
    if op == ">":
        return high > value
    if op == "<=":
        return low <= value
    if op == "<":
        return low < value
    if op == "=":
        return low <= value <= high
    return not low == high == value  # "!="


def _counter_findings(graph: Graph, state: Any, uses: StateUses) -> Iterator[Finding]:
    ranges: dict[str, tuple[int, int]] = {}
    for number, compare, name in uses.compares:
        left = isinstance(compare.left, ast.ValueRef) and bool(state.counter(compare.left.name))
        counter_side, other = compare.left, compare.right
        if not left:
            counter_side, other = other, counter_side
        value = constant_value(other, number)
        if value is None or not isinstance(counter_side, ast.ValueRef):
            continue
        if name not in ranges:
            entry = state.counter(name)
            changes = uses.counts_changed.get(name, [])
            ranges[name] = counter_range(graph, entry, changes, uses.repeated)
        low, high = ranges[name]
        if _may_hold(compare.op, low, high, value, left):
            continue
        yield finding(
            "W096",
            tr(
                "counter '{name}' only goes from {low} to {high} in this book, so this "
                "condition is never met",
                name=counter_side.name,
                low=low,
                high=high,
            ),
            compare.span,
            paragraph=number,
            hint=tr(
                "add to the counter on the way here (`add 1 to {name}`), or change the "
                "number compared with",
                name=counter_side.name,
            ),
        )


def check_book_state(graph: Graph, book: object) -> list[Finding]:
    """W094, W095, W096, I097 for a book that declares flags or counters."""
    state = declared_state(book)
    if state is None:
        return []
    uses = collect_state_uses(graph, state)
    found: list[Finding] = []
    for name, sites in uses.flags_tested.items():
        if name in uses.flags_set:
            continue
        for number, span, written in sites:
            found.append(
                finding(
                    "W094",
                    tr("flag '{name}' is tested here but no paragraph notes it", name=written),
                    span,
                    paragraph=number,
                    hint=tr("add `> note {name}` to a paragraph on the way here", name=written),
                )
            )
    for entry in state.flags:
        sites = uses.flags_set.get(entry.name)
        if sites and entry.name not in uses.flags_tested and entry.sheet == "none":
            number, span, written = sites[0]
            found.append(
                finding(
                    "W095",
                    tr(
                        "flag '{name}' is noted here but nothing tests it and the sheet "
                        "does not show it",
                        name=written,
                    ),
                    span,
                    paragraph=number,
                    hint=tr(
                        "test it in a condition (`if {name}`), or show it on the sheet",
                        name=written,
                    ),
                )  # fmt: skip
            )
    found += _counter_findings(graph, state, uses)
    for entry in (*state.flags, *state.counters):
        used = (
            entry.name in uses.flags_set
            or entry.name in uses.flags_tested
            or entry.name in uses.counts_changed
            or entry.name in uses.counts_read
        )
        if not used:
            found.append(
                finding(
                    "I097",
                    tr(
                        "'{name}' is declared in book.yaml but no paragraph uses it",
                        name=entry.name,
                    ),
                    entry.span,
                    hint=tr("use it in a paragraph, or remove it from `state:`"),
                )  # fmt: skip
            )
    return found


def flag_sites(graph: Graph, book: object) -> tuple[dict[str, set[int]], set[str]]:
    """(the paragraphs noting each flag, the flags some condition tests), for the explorer."""
    noted: dict[str, set[int]] = {}
    tested: set[str] = set()
    if declared_state(book) is None:
        return noted, tested
    for number, node in graph.nodes.items():
        for statement in walk(node.paragraph.body):
            if type(statement) is ast.SetFlag:
                noted.setdefault(statement.name, set()).add(number)
            tested.update(a.name for a in _read_conditions(statement) if isinstance(a, ast.HasFlag))
    return noted, tested


def flag_key(name: str) -> str:
    """The key under which the state explorer tracks a flag among the codewords."""
    return "\x00flag:" + name_key(name)
