"""``dedale solve --exact``: the best-play chance to win as a fraction.

The book is solved as always (:func:`dedale.solve.graph.solve_book`), with its chances
carried as fractions (:mod:`dedale.solve.exactness`: the dice, the roll-under tests, the
plain fights' outcomes and escapes, :mod:`dedale.solve.exact_fights`; a fight whose
outcomes exist only in floats is refused at its line). A plain fight whose Luck is decided
for the book (a :class:`~dedale.solve.duel.Duel` node) is valued by its exact twin; in a
loop its Luck decisions are part of the policy (those that are best for given values of
its end states). The graph it built is then valued again in
:class:`fractions.Fraction`, component by component from the endings back: a node outside
any loop by one expectimax evaluation; a loop by **exact policy iteration** — start from
the float solve's decisions, solve the linear system of the loop's nodes under them in
fractions (the nodes that can never leave the loop under the policy are worth 0: the least
fixed point), improve each decision where another option is strictly better, and repeat
until no decision changes (then the values satisfy the optimality equations, and being a
policy's values they are the least fixed point: the best-play chance). Each loop has a
budget (its size, the rounds of improvement, the deadline); past it the exact answer is
refused, never approximated. The fraction is checked against the float answer (1e-9),
which then becomes ``float(fraction)`` (value iteration's is within its tolerance).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dedale.i18n import number, tr
from dedale.solve import clock
from dedale.solve.duel import Duel
from dedale.solve.exactness import EXACT
from dedale.solve.graph import SolveResult, _components, solve_book, successors, value_of
from dedale.solve.model import Chance, Decision, Leaf, Next, SolveLimit

MAX_LOOP_STATES = 400
"""Nodes at most in one loop solved by exact policy iteration."""
MAX_ROUNDS = 200
"""Rounds of policy improvement at most per loop."""
AGREEMENT = 1e-9
"""The float answer and the fraction agree to this."""


class ExactBudget(SolveLimit):
    """The float solve finished but a loop was past the exact policy iteration's budget:
    ``result`` is the float answer, which stands."""

    def __init__(self, message: str, *, hint: str | None = None, result=None) -> None:
        super().__init__(message, hint=hint)
        self.result = result


def solve_exact(
    book, hero: tuple[int, ...], class_name: str | None = None, *,
    deadline: float | None = None, **options: Any,
) -> tuple[SolveResult, Fraction | None]:  # fmt: skip
    """Solve with fractions; returns the float result and the exact chance (None when the
    solve did not finish). A fight whose outcomes exist only in floats raises SolveLimit at
    its line; a loop past the exact budget raises :class:`ExactBudget` with the float
    result."""
    token = EXACT.set(True)
    try:
        result = solve_book(book, hero, class_name, deadline=deadline, **options)
    finally:
        EXACT.reset(token)
    if not result.complete:
        return result, None
    try:
        exact = exact_values(result.trees, result.values, deadline)[0]
    except SolveLimit as error:  # a loop past the exact budget: the float answer stands
        raise ExactBudget(error.message, hint=error.hint, result=result) from None
    if abs(float(exact) - result.win_probability) > AGREEMENT:  # pragma: no cover - a bug
        raise SolveLimit(
            tr("the exact answer {exact} and the float answer {float} disagree",
               exact=float(exact), float=result.win_probability)
        )  # fmt: skip
    result.win_probability = float(exact)  # value iteration's own is within its tolerance
    return result, exact


def exact_values(trees: list, floats: list[float], deadline: float | None = None) -> list:
    """Every node's value as a Fraction (see the module docstring); ``floats``: the float
    solve's values, whose decisions start the policy iteration of each loop."""
    edges = [successors(tree) for tree in trees]
    values: list[Any] = [None] * len(trees)
    for component in _components(edges):  # endings first
        if len(component) == 1 and component[0] not in edges[component[0]]:
            values[component[0]] = _best(trees[component[0]], values, None)
            continue
        _Loop(component, trees, values, floats, deadline).solve()
    return values


def _probability(p) -> Fraction:
    if isinstance(p, float):  # pragma: no cover - every producer gives fractions here
        raise SolveLimit(tr("--exact met a chance computed in floats"))
    return Fraction(p)


def _best(tree, values: list, policy: dict | None) -> Fraction:
    """The tree's exact value: its decisions at their best (``policy`` None) or, with a
    ``policy`` dict, at their best too, recording each decision's best option there (the
    option already chosen is kept unless another is strictly better)."""
    kind = type(tree)
    if kind is Next:
        return values[tree.node]
    if kind is Leaf:
        return Fraction(tree.value)
    if kind is Chance:
        return sum((_probability(p) * _best(sub, values, policy) for p, _, sub in tree.branches),
                   Fraction(0))  # fmt: skip
    if kind is Decision:
        found = [_best(sub, values, policy) for _, _, sub in tree.options]
        best = max(found)
        if policy is not None:
            current = policy.get(id(tree))
            if current is None or found[current] < best:
                policy[id(tree)] = found.index(best)
        return best
    if kind is Duel:  # a plain fight, Luck decided for the book: its exact twin
        terminal = {key: _best(sub, values, policy) for key, sub in tree.ends.items()}
        best, _ = _twin(tree).book_value(tree.begin, terminal)
        if policy is not None:  # the Luck inside it decided for the values of its ends
            current = policy.get(id(tree))
            if current is None or _under(tree, current, terminal) < best:
                policy[id(tree)] = terminal
        return best
    raise SolveLimit(tr("--exact cannot value this node (Luck decided for the book)"))


def _twin(duel):
    twin = getattr(duel.table, "exact", None)
    if twin is None:  # pragma: no cover - the oracle makes one in an exact solve
        raise SolveLimit(tr("--exact cannot value this node (Luck decided for the book)"))
    return twin


def _under(duel, choosing: dict, terminal: dict) -> Fraction:
    """The Duel's value for ``terminal`` with its Luck decided as for ``choosing``."""
    ends = _twin(duel).ends_under(duel.begin, choosing)
    return sum((p * terminal[key] for key, p in ends.items()), Fraction(0))


class _Loop:
    """One strongly connected component solved by exact policy iteration."""

    def __init__(self, component, trees, values, floats, deadline) -> None:
        if len(component) > MAX_LOOP_STATES:
            raise SolveLimit(
                tr("--exact: a loop of {count} states is past the exact policy iteration's "
                   "{limit}", count=number(len(component), ","),
                   limit=number(MAX_LOOP_STATES, ",")),
                hint=tr("drop --exact: value iteration gives the answer to about 1e-12"),
            )  # fmt: skip
        self.nodes = component
        self.index = {node: at for at, node in enumerate(component)}
        self.trees, self.values, self.deadline = trees, values, deadline
        self.policy: dict[int, int] = {}
        for node in component:  # the float solve's decisions
            self._start(trees[node], floats)

    def _start(self, tree, floats) -> None:
        kind = type(tree)
        if kind is Decision:
            found = [value_of(sub, floats) for _, _, sub in tree.options]
            self.policy[id(tree)] = found.index(max(found))
            for _, _, sub in tree.options:
                self._start(sub, floats)
        elif kind is Chance:
            for _, _, sub in tree.branches:
                self._start(sub, floats)
        elif kind is Duel:  # Luck decided as for the float solve's values of its ends
            self.policy[id(tree)] = {
                key: Fraction(value_of(sub, floats)) for key, sub in tree.ends.items()
            }

    def solve(self) -> None:
        for _ in range(MAX_ROUNDS):
            if self.deadline is not None and clock.now() > self.deadline:
                break
            self._evaluate()
            before = dict(self.policy)
            for node in self.nodes:
                _best(self.trees[node], self.values, self.policy)
            if self.policy == before:
                return
        raise SolveLimit(
            tr("--exact: the exact policy iteration of a loop did not settle in its budget"),
            hint=tr("drop --exact: value iteration gives the answer to about 1e-12"),
        )

    def _linear(self, tree) -> tuple[Fraction, dict[int, Fraction]]:
        """The tree under the policy as ``constant + sum(coefficient * value of a loop node)``."""
        kind = type(tree)
        if kind is Next:
            at = self.index.get(tree.node)
            if at is None:
                return self.values[tree.node], {}
            return Fraction(0), {at: Fraction(1)}
        if kind is Leaf:
            return Fraction(tree.value), {}
        if kind is Decision:
            return self._linear(tree.options[self.policy[id(tree)]][2])
        if kind is Chance:
            constant, found = Fraction(0), {}
            for p, _, sub in tree.branches:
                p = _probability(p)
                c, row = self._linear(sub)
                constant += p * c
                for at, q in row.items():
                    found[at] = found.get(at, Fraction(0)) + p * q
            return constant, found
        if kind is Duel:  # under its Luck decisions: the chances of its ends
            constant, found = Fraction(0), {}
            for key, p in _twin(tree).ends_under(tree.begin, self.policy[id(tree)]).items():
                c, row = self._linear(tree.ends[key])
                constant += p * c
                for at, q in row.items():
                    found[at] = found.get(at, Fraction(0)) + p * q
            return constant, found
        raise SolveLimit(tr("--exact cannot value this node (Luck decided for the book)"))

    def _evaluate(self) -> None:
        """The loop's values under the policy: nodes that cannot leave the loop are worth
        0; the others solve ``(I - A) v = b`` exactly (sparse Gaussian elimination)."""
        rows = [self._linear(self.trees[node]) for node in self.nodes]
        leaving = {at for at, (c, row) in enumerate(rows) if c or sum(row.values()) < 1}
        back: dict[int, set[int]] = {}
        for at, (_, row) in enumerate(rows):
            for target in row:
                back.setdefault(target, set()).add(at)
        live, stack = set(leaving), list(leaving)
        while stack:  # the nodes from which the policy can leave the loop
            for source in back.get(stack.pop(), ()):
                if source not in live:
                    live.add(source)
                    stack.append(source)
        system = {}
        for at in live:
            constant, row = rows[at]
            equation = {k: -q for k, q in row.items() if k in live and q}
            equation[at] = equation.get(at, Fraction(0)) + 1
            system[at] = (equation, constant)
        solution = _gauss(system)
        for at, node in enumerate(self.nodes):
            self.values[node] = solution.get(at, Fraction(0))


def _gauss(system: dict[int, tuple[dict[int, Fraction], Fraction]]) -> dict[int, Fraction]:
    """Solve ``sum(row[k] * x[k]) = b`` for each equation (keyed by its pivot variable),
    by sparse elimination in fractions."""
    rows = {at: (dict(row), b) for at, (row, b) in system.items()}
    users: dict[int, set[int]] = {}
    for at, (row, _) in rows.items():
        for k in row:
            users.setdefault(k, set()).add(at)
    order = sorted(rows)
    for pivot in order:
        row, b = rows[pivot]
        lead = row.get(pivot)
        if not lead:  # pragma: no cover - (I - A) of a leaving set is regular
            raise SolveLimit(tr("--exact: a loop's linear system is singular"))
        row = {k: q / lead for k, q in row.items()}
        b = b / lead
        rows[pivot] = (row, b)
        for other in list(users.get(pivot, ())):
            if other == pivot:
                continue
            orow, ob = rows[other]
            factor = orow.pop(pivot, None)
            if not factor:
                continue
            for k, q in row.items():
                if k == pivot:
                    continue
                value = orow.get(k, Fraction(0)) - factor * q
                if value:
                    orow[k] = value
                    users.setdefault(k, set()).add(other)
                else:
                    orow.pop(k, None)
            rows[other] = (orow, ob - factor * b)
        users[pivot] = {pivot}
    return {at: b for at, (_, b) in rows.items()}
