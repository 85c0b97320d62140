"""The items and codewords each paragraph touches, and where each one is still alive.

The state-aware explorer (validator.state_explorer) tracks an item or codeword only while
some later paragraph may test it: after its last possible test, whether the reader holds
it changes nothing any more, so it is dropped from the state (liveness, as a compiler
computes it). Before its first possible change it has its starting value on every path, so
it does not split states either. Together these keep only the atoms "in flight" in a
state, which is what lets a book with dozens of items and codewords be checked whole.

The explorer also caches each paragraph's effect on the atoms it touches (reads or
writes), keyed by their values alone; :func:`paragraph_atoms` gives both sets.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from dataclasses import dataclass

from dedale import ast
from dedale.rules.ruleset import fold
from dedale.validator.book_state_checks import flag_key
from dedale.validator.graph import Graph

Atoms = tuple[frozenset[str], frozenset[str]]  # (folded items, codeword and flag keys)
EMPTY: Atoms = (frozenset(), frozenset())


@dataclass(frozen=True, slots=True)
class ParagraphAtoms:
    """The tracked atoms one paragraph tests (``reads``) and tests or changes (``touched``)."""

    reads: Atoms
    touched: Atoms
    reads_class: bool = False  # a condition on the hero's class (``if class Mercenary``)


_LEAVES = (ast.Prose,)
_AST = ast.__name__
_ITEM_READS = (ast.HasItem, ast.Cost)
_ITEM_WRITES = (ast.GainItem, ast.LoseItem, ast.Cost)
_CODE_READS = (ast.HasCodeword,)
_CODE_WRITES = (ast.SetCodeword, ast.ClearCodeword)
MAX_DEPTH = 200
"""How deep :func:`_nodes` looks (the AST of a book is shallow; the loader refuses deeper)."""

_SEQUENCE = 1  # a tuple or list: its items are looked into
_KINDS: dict[type, int | tuple[str, ...] | None] = {}
"""Per type met in the AST: :data:`_SEQUENCE`, an AST node's fields that may hold nodes
(all but ``span``), or None (a leaf value: a string, a number, an enum...)."""
_ROLES: dict[type, tuple[str, bool] | None] = {}
"""Per AST class: what :func:`paragraph_atoms` reads in its nodes (``item``, ``codeword``,
``flag`` or ``class``; and whether it is a test) or None (nothing)."""


def _kind(kind: type) -> int | tuple[str, ...] | None:
    found: int | tuple[str, ...] | None = None
    if kind is tuple or kind is list:
        found = _SEQUENCE
    elif kind.__module__ == _AST and dataclasses.is_dataclass(kind):
        found = tuple(spec.name for spec in dataclasses.fields(kind) if spec.name != "span")
    _KINDS[kind] = found
    return found


def _nodes(value: object) -> list[object]:
    """Every AST node inside ``value`` (statements, conditions, costs), nested ones too, in
    no particular order; prose lines are not looked into. A walk with a stack and each
    type's fields looked up once (:data:`_KINDS`): the nested generators it replaces cost
    twice as much for a 1,000-paragraph book (issue 14.11)."""
    found: list[object] = []
    stack: list[tuple[object, int]] = [(value, 0)]
    pop, push = stack.pop, stack.append
    kinds = _KINDS
    while stack:
        value, depth = pop()
        kind = kinds.get(type(value), 0)
        if kind == 0:
            kind = _kind(type(value))
        if kind is None:
            continue
        if kind == _SEQUENCE:
            if depth < MAX_DEPTH:
                for item in value:  # type: ignore[attr-defined]
                    if not isinstance(item, _LEAVES):
                        push((item, depth + 1))
            continue
        found.append(value)
        if depth < MAX_DEPTH:
            for name in kind:  # type: ignore[union-attr]
                push((getattr(value, name), depth + 1))
    return found


def _role(kind: type) -> tuple[str, bool] | None:
    found: tuple[str, bool] | None = None
    if issubclass(kind, (*_ITEM_READS, *_ITEM_WRITES)):
        found = ("item", issubclass(kind, _ITEM_READS))
    elif issubclass(kind, (*_CODE_READS, *_CODE_WRITES)):
        found = ("codeword", issubclass(kind, _CODE_READS))
    elif issubclass(kind, ast.HasFlag | ast.SetFlag | ast.ClearFlag):
        found = ("flag", issubclass(kind, ast.HasFlag))
    elif issubclass(kind, ast.HasClass):
        found = ("class", True)
    _ROLES[kind] = found
    return found


def paragraph_atoms(
    body: tuple[ast.Statement, ...], items: set[str], codewords: set[str]
) -> ParagraphAtoms:
    """The tracked items and codewords (book flags as codewords) ``body`` reads and touches."""
    read_items: set[str] = set()
    read_codes: set[str] = set()
    all_items: set[str] = set()
    all_codes: set[str] = set()
    reads_class = False
    roles = _ROLES
    for node in _nodes(body):
        role = roles.get(type(node), 0)
        if role == 0:
            role = _role(type(node))
        if role is None:
            continue
        what, test = role  # type: ignore[misc]
        if what == "item":
            name = getattr(node, "item", None)
            if name is None:
                continue
            name = fold(name)
            if name in items:
                all_items.add(name)
                if test:
                    read_items.add(name)
        elif what == "codeword":
            name = fold(node.codeword)  # type: ignore[attr-defined]
            if name in codewords:
                all_codes.add(name)
                if test:
                    read_codes.add(name)
        elif what == "flag":
            name = flag_key(node.name)  # type: ignore[attr-defined]
            if name in codewords:
                all_codes.add(name)
                if test:
                    read_codes.add(name)
        else:
            reads_class = True
    return ParagraphAtoms(
        (frozenset(read_items), frozenset(read_codes)),
        (frozenset(all_items), frozenset(all_codes)),
        reads_class,
    )


def live_atoms(graph: Graph, reads: dict[int, int]) -> dict[int, int]:
    """For each paragraph, the atoms (a bitset) some path from its start may still test,
    its own tests included: the least fixpoint of live(n) = reads(n) | live of its
    successors. A paragraph is revisited only when a successor's set grew: bounded by
    paragraphs x atoms. Visited from the last paragraph up, as books mostly run forward."""
    live = {number: reads.get(number, 0) for number in graph.nodes}
    order = sorted(graph.nodes, reverse=True)
    queue = deque(order)
    queued = set(order)
    successors = {number: tuple(set(graph.successors(number))) for number in order}
    while queue:
        number = queue.popleft()
        queued.discard(number)
        bits = live[number]
        for target in successors[number]:
            bits |= live[target]
        if bits == live[number]:
            continue
        live[number] = bits
        for edge in graph.predecessors.get(number, ()):
            if edge.source in live and edge.source not in queued:
                queued.add(edge.source)
                queue.append(edge.source)
    return live
