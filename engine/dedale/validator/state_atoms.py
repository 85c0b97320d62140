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
from collections.abc import Iterator
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


_CHILDREN: dict[type, tuple[str, ...]] = {}  # per AST class: the fields that may hold nodes
_LEAVES = (ast.Prose,)


def _children(kind: type) -> tuple[str, ...]:
    names = _CHILDREN.get(kind)
    if names is None:
        names = _CHILDREN[kind] = tuple(
            spec.name for spec in dataclasses.fields(kind) if spec.name != "span"
        )
    return names


def _nodes(value: object, depth: int = 0) -> Iterator[object]:
    """Every AST node inside ``value`` (statements, conditions, costs), nested ones too."""
    if depth > 200:  # the AST of a book is shallow; never recurse without bound
        return
    if isinstance(value, tuple | list):
        for item in value:
            if not isinstance(item, _LEAVES):
                yield from _nodes(item, depth + 1)
    elif type(value).__module__ == _AST and dataclasses.is_dataclass(value):
        yield value
        for name in _children(type(value)):
            child = getattr(value, name)
            if isinstance(child, tuple | list) or type(child).__module__ == _AST:
                yield from _nodes(child, depth + 1)


_AST = ast.__name__
_ITEM_READS = (ast.HasItem, ast.Cost)
_ITEM_WRITES = (ast.GainItem, ast.LoseItem, ast.Cost)
_CODE_READS = (ast.HasCodeword,)
_CODE_WRITES = (ast.SetCodeword, ast.ClearCodeword)


def paragraph_atoms(
    body: tuple[ast.Statement, ...], items: set[str], codewords: set[str]
) -> ParagraphAtoms:
    """The tracked items and codewords (book flags as codewords) ``body`` reads and touches."""
    read_items: set[str] = set()
    read_codes: set[str] = set()
    all_items: set[str] = set()
    all_codes: set[str] = set()
    reads_class = False
    for node in _nodes(body):
        if isinstance(node, (*_ITEM_READS, *_ITEM_WRITES)):
            name = getattr(node, "item", None)
            if name is None:
                continue
            name = fold(name)
            if name in items:
                all_items.add(name)
                if isinstance(node, _ITEM_READS):
                    read_items.add(name)
        elif isinstance(node, (*_CODE_READS, *_CODE_WRITES)):
            name = fold(node.codeword)
            if name in codewords:
                all_codes.add(name)
                if isinstance(node, _CODE_READS):
                    read_codes.add(name)
        elif isinstance(node, ast.HasFlag | ast.SetFlag | ast.ClearFlag):
            name = flag_key(node.name)
            if name in codewords:
                all_codes.add(name)
                if isinstance(node, ast.HasFlag):
                    read_codes.add(name)
        elif isinstance(node, ast.HasClass):
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
