"""The graph of snapshots: built depth-first (the node found last expanded first) within a
budget, then solved; a solve cut short is reported with a lower and an upper bound.

Values are the best-play probability of winning from each node. The graph is cut into
strongly connected components (Tarjan, iterative); components are solved from the endings
back: a node outside any loop in one evaluation (exact), a loop (a hub the reader comes
back to) by Gauss-Seidel value iteration from 0 until no value moves by more than
``TOLERANCE`` (monotone from below: the least fixed point, which is the winning chance).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from dedale.solve import clock
from dedale.solve.duel import Duel
from dedale.solve.explore import Entry, Explorer, Root
from dedale.solve.model import Chance, Decision, Leaf, Next, OutOfTime, SolveLimit, Tree

TOLERANCE = 1e-12
"""Value iteration stops once a sweep moves no value by more than this."""

MAX_SWEEPS = 1_000_000
"""Sweeps of one loop at most (the budget usually stops it first)."""

UPPER_GRACE = 2.0
"""CPU seconds the loops' sweeps of an incomplete solve's upper bound may take past the budget."""

DEFAULT_STATES = 400_000
"""The state-count cap (``--max-states``)."""


@dataclass(slots=True)
class SolveResult:
    """One solve: the value at the root, the graph's size, how it was solved."""

    win_probability: float
    states: int
    expanded: int
    seconds: float
    complete: bool
    loops: int = 0
    sweeps: int = 0
    residual: float = 0.0
    fights: int = 0
    replays: int = 0
    limit: str = ""
    upper_bound: float = 1.0  # the unexplored nodes counted as won (= the answer when complete)
    trees: list[Tree] = field(default_factory=list, repr=False)
    values: list[float] = field(default_factory=list, repr=False)
    targets: list[int] = field(default_factory=list, repr=False)


class Graph:
    """Node table: an Entry (snapshot + paragraph) per id; node 0 is the root."""

    def __init__(self) -> None:
        self.ids: dict[Entry, int] = {}
        self.origins: list[Root | Entry] = []
        self.queue: deque[int] = deque()

    def add_root(self, root: Root) -> None:
        self.origins.append(root)
        self.queue.append(0)

    def intern(self, entry: Entry) -> int:
        found = self.ids.get(entry)
        if found is None:
            found = self.ids[entry] = len(self.origins)
            self.origins.append(entry)
            self.queue.append(found)
        return found


def solve_book(
    book,
    hero: tuple[int, ...],
    class_name: str | None = None,
    *,
    luck_policy: str = "best",
    deadline: float | None = None,
    max_states: int = DEFAULT_STATES,
    shortcuts: bool = True,
    prune: bool = True,
    shared: dict | None = None,
    eager: bool = True,
    collapse: bool = True,
    depth_first: bool = True,
) -> SolveResult:
    """Best-play chance to win ``book`` with this hero (see the module docstring).

    Past ``deadline`` (a ``clock.now()`` value) or ``max_states`` the result is
    ``complete=False``: ``win_probability`` is then a lower bound (the nodes left unexplored
    count as lost), ``upper_bound`` an upper bound (they count as won: :func:`upper_bound`)
    and ``limit`` says which bound stopped it. ``depth_first`` (the default): the node found
    last is expanded first, so that a solve cut short has explored whole sub-graphs down to
    the endings and its lower bound means something (breadth-first, a cut solve of a large
    book often reaches no ending: a lower bound of 0); the graph, and so the answer and the
    state count of a complete solve, are the same either way (the tests check both).
    ``shortcuts=False`` replays every choice and fight outcome instead of reading its next
    node off the state;
    ``prune=False`` keeps the counters and item counts no later rule reads
    (:mod:`dedale.solve.liveness`) in the state (the tests check both ways agree).
    ``shared``: a dict kept across the solves of one book with one Luck policy (the fight
    outcomes and tables, keyed on all they read: the heroes of an average share them).
    ``eager=False`` offers every meal (:mod:`dedale.solve.eager`: a solve whose check
    fails is done again that way). ``collapse=False`` keeps the states of an escape fight
    without Luck as graph nodes (:mod:`dedale.solve.escape_duel`; a walkthrough needs them)."""
    started = clock.now()
    graph = Graph()
    explorer = Explorer(
        book, luck_policy, graph.intern, shortcuts=shortcuts, known=graph.ids.get, prune=prune,
        shared=shared, eager=eager, collapse=collapse,
    )  # fmt: skip
    explorer.deadline = deadline
    explorer.origins = graph.origins
    graph.add_root(Root(tuple(hero), class_name))
    trees: list[Tree | None] = []
    limit = ""
    expanded = 0
    while graph.queue:
        if deadline is not None and clock.now() > deadline:
            limit = "time"
            break
        if len(graph.origins) > max_states:
            limit = "states"
            break
        node = graph.queue.pop() if depth_first else graph.queue.popleft()
        try:
            tree = explorer.tree(graph.origins[node])
        except OutOfTime:  # within one node: it and the nodes it had added stay unexplored
            limit = "time"
            break
        while len(trees) <= node:
            trees.append(None)
        trees[node] = tree
        expanded += 1
    size = len(graph.origins)
    full: list[Tree] = [t if t is not None else Leaf(0.0) for t in trees]
    full.extend(Leaf(0.0) for _ in range(size - len(full)))
    values, loops, sweeps, residual = solve_values(full, deadline)
    if residual > TOLERANCE and not limit:
        limit = "time"
    if limit and residual <= TOLERANCE and values[0] >= 1.0 - TOLERANCE:
        limit = ""  # a lower bound of 1 is the answer: the unexplored part cannot add to it
    upper = min(1.0, values[0])
    if limit:  # the loops' sweeps get UPPER_GRACE seconds more (else: no bound, 1)
        cut = [t is None for t in trees] + [True] * (size - len(trees))
        upper = upper_bound(full, cut, clock.now() + UPPER_GRACE)
    if explorer.eager.violated and explorer.eager.used:  # more STAMINA may be worse here
        return solve_book(
            book, hero, class_name, luck_policy=luck_policy, deadline=deadline,
            max_states=max_states, shortcuts=shortcuts, prune=prune, shared=shared, eager=False,
            collapse=collapse, depth_first=depth_first,
        )  # fmt: skip
    targets = [getattr(origin, "target", 0) for origin in graph.origins]
    return SolveResult(
        win_probability=min(1.0, values[0]),  # sums of float shares may pass 1 by 1e-16
        states=size,
        expanded=expanded,
        seconds=clock.now() - started,
        complete=not limit,
        loops=loops,
        sweeps=sweeps,
        residual=residual,
        fights=explorer.oracle.fights,
        replays=explorer.replays,
        limit=limit,
        upper_bound=upper,
        trees=full,
        values=values,
        targets=targets,
    )


def upper_bound(trees: list[Tree], unexplored: list[bool], deadline: float | None = None) -> float:
    """An upper bound on the root's value when the nodes flagged ``unexplored`` were never
    expanded: they count as won (1), the graph is valued as usual.

    Why it bounds: every value is a probability, so 1 is at least the true value of each
    unexplored node. Value iteration from 0 applies the Bellman operator T (sums with
    non-negative weights, maxima: monotone) sweep after sweep; on the explored nodes the
    iterates with the unexplored ones held at 1 stay, by induction on the sweeps, at least
    those of the whole graph (``x₀ = y₀ = 0``; ``x_{n+1} = T(x_n, 1) ≥ T(y_n, y_n) = y_{n+1}``
    as ``y_n ≤ 1`` on the unexplored ones): their limits too, and the whole graph's limit
    is the least fixed point, the true chance. A loop not settled within the budget gives
    no bound (1). The same tolerance as the answer (``TOLERANCE`` per sweep) applies."""
    full = [Leaf(1.0) if cut else tree for tree, cut in zip(trees, unexplored, strict=True)]
    values, _, _, residual = solve_values(full, deadline)
    return 1.0 if residual > TOLERANCE else min(1.0, values[0])


def value_of(tree: Tree, values: list[float]) -> float:
    """The expectimax value of a paragraph's tree given the nodes' values."""
    kind = type(tree)
    if kind is Next:
        return values[tree.node]  # type: ignore[union-attr]
    if kind is Leaf:
        return tree.value  # type: ignore[union-attr]
    if kind is Chance:
        return sum(p * value_of(sub, values) for p, _, sub in tree.branches)  # type: ignore[union-attr]
    if kind is Duel:
        return tree.value(lambda sub: value_of(sub, values))  # type: ignore[union-attr]
    return max(value_of(sub, values) for _, _, sub in tree.options)  # type: ignore[union-attr]


def successors(tree: Tree) -> list[int]:
    """The nodes a tree's leaves lead to."""
    found: list[int] = []
    stack: list[Any] = [tree]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is Next:
            found.append(item.node)
        elif kind is Chance:
            stack.extend(sub for _, _, sub in item.branches)
        elif kind is Decision:
            stack.extend(sub for _, _, sub in item.options)
        elif kind is Duel:
            stack.extend(item.ends.values())
    return found


def solve_values(
    trees: list[Tree], deadline: float | None = None
) -> tuple[list[float], int, int, float]:
    """Values of every node; returns (values, loops, sweeps, largest residual)."""
    edges = [successors(tree) for tree in trees]
    values = [0.0] * len(trees)
    loops = sweeps = 0
    residual = 0.0
    for component in _components(edges):  # endings first (Tarjan's order)
        if len(component) == 1 and component[0] not in edges[component[0]]:
            node = component[0]
            values[node] = value_of(trees[node], values)
            continue
        loops += 1
        for _ in range(MAX_SWEEPS):
            sweeps += 1
            moved = 0.0
            for node in component:
                new = value_of(trees[node], values)
                moved = max(moved, abs(new - values[node]))
                values[node] = new
            if moved <= TOLERANCE:
                break
            if deadline is not None and clock.now() > deadline:
                residual = max(residual, moved)
                break
        else:
            raise SolveLimit("value iteration did not settle")  # pragma: no cover
    return values, loops, sweeps, residual


def _components(edges: list[list[int]]) -> list[list[int]]:
    """Strongly connected components, each after every component it leads to."""
    index = [0] * len(edges)
    low = [0] * len(edges)
    seen = [False] * len(edges)
    on_stack = [False] * len(edges)
    stack: list[int] = []
    found: list[list[int]] = []
    counter = 1
    for start in range(len(edges)):
        if seen[start]:
            continue
        work = [(start, 0)]
        seen[start] = True
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack[start] = True
        while work:
            node, at = work[-1]
            out = edges[node]
            if at < len(out):
                work[-1] = (node, at + 1)
                nxt = out[at]
                if not seen[nxt]:
                    seen[nxt] = True
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack[nxt] = True
                    work.append((nxt, 0))
                elif on_stack[nxt]:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component.append(member)
                    if member == node:
                        break
                found.append(component)
    return found
