"""Liveness of the state's atoms: codewords, visits, items, and bounds on counters.

A complement to :mod:`dedale.solve.liveness` (the counters no later rule reads), computed
once per book over the same paragraph graph; conservative by construction:

- a **codeword** is dead on entering ``P`` when no statement of any paragraph reachable
  from ``P`` names it (its prose aside), nor an ongoing rule, nor the ruleset's data: it
  is left out of the snapshot;
- a **visit** of paragraph ``N`` is dead on entering ``P`` when no condition reachable
  from ``P`` asks whether ``N`` was visited;
- an **item** (without an inventory limit) is dead the same way when no statement
  reachable names it and it has no effect, is no weapon and is not in the ruleset's data
  (its bonuses, armour and weapons are read by the rules themselves);
- a **counter** other than the meals whose every mention reachable from ``P`` is a cost
  (``pay 3 gold``), a loss or gain by a fixed amount, or a comparison with a number, and
  whose paying paragraphs are on no loop, is **bounded**: any amount at or above
  ``U(P)`` = (the sum of every cost and loss reachable) + (the largest number compared
  with, plus 1) decides exactly what ``U(P)`` decides (every cost can still be paid, every
  comparison comes out the same), so it is kept as ``min(amount, U(P))``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dedale import ast
from dedale.rules.ruleset import fold
from dedale.solve.meal_cap import MealCap

_FOLDED: dict[str, str] = {}


def folded(name: str) -> str:
    """``fold(name)``, remembered (the names of one book are few, the states many)."""
    found = _FOLDED.get(name)
    if found is None:
        if len(_FOLDED) > 100_000:
            _FOLDED.clear()
        found = _FOLDED[name] = fold(name)
    return found


INFINITE = -1
"""No bound on a counter at a paragraph."""


@dataclass(slots=True)
class Atoms:
    """What the snapshot keeps on entering each paragraph (see the module docstring)."""

    names: dict[int, frozenset[str]] = field(default_factory=dict)  # folded, read from P on
    visits: dict[int, frozenset[int]] = field(default_factory=dict)
    bounds: dict[int, dict[str, int]] = field(default_factory=dict)  # counter -> U(P)
    always: frozenset[str] = frozenset()  # folded names read everywhere
    items: bool = False  # whether dead items may be left out (no inventory limit)
    all_visits: bool = False  # a condition asks about a computed paragraph: keep them all
    enabled: bool = False
    _visit_keys: dict[int, frozenset[str]] = field(default_factory=dict)  # as snapshot keys
    meal_cap: MealCap = field(default_factory=MealCap)  # meals past use (solve.meal_cap)

    def prune(self, data: dict, paragraph: int) -> None:
        """Leave the dead codewords, visits and items out of a snapshot's data, and
        clamp the bounded counters, entering ``paragraph``."""
        if not self.enabled or paragraph not in self.names:
            return
        names = self.names[paragraph]
        always = self.always
        words = data["codewords"]
        if words:
            data["codewords"] = [w for w in words if (f := folded(w)) in names or f in always]
        if not self.all_visits:
            visits = self._visit_keys.get(paragraph)
            if visits is None:
                visits = self._visit_keys[paragraph] = frozenset(
                    str(n) for n in self.visits[paragraph]
                )
            visited = data["visited"]
            if visited:
                data["visited"] = {k: v for k, v in visited.items() if k in visits}
        hero = data["hero"]
        items = hero["items"]
        if self.items and items:
            hero["items"] = {
                k: v for k, v in items.items() if (f := folded(k)) in names or f in always
            }
        counters = hero["counters"]
        for name, bound in self.bounds[paragraph].items():
            if counters.get(name, 0) > bound:
                counters[name] = bound
        if self.meal_cap.enabled:
            self.meal_cap.prune(data, paragraph)

    def signature(self, paragraph: int) -> tuple:
        """Equal for two paragraphs whose snapshots are pruned alike."""
        if not self.enabled:
            return ()
        return (
            self.names.get(paragraph),
            self.visits.get(paragraph),
            tuple(sorted(self.bounds.get(paragraph, {}).items())),
            self.meal_cap.signature(paragraph),
        )


def analyse(book, edges: dict[int, set[int]], always: set[str], nodes, counters, meal) -> Atoms:
    """The atoms' liveness over ``edges`` (the paragraph graph of the liveness analysis);
    ``always``: the folded names read everywhere; ``nodes(body)``: the AST walk;
    ``counters``: the ruleset's counter ids; ``meal``: the meals' counter (never bounded)."""
    from dedale.solve.liveness import _closure

    ruleset = book.ruleset
    named: dict[int, set[str]] = {}
    visits: dict[int, set[int]] = {}
    uses: dict[str, dict[int, set]] = {c: {} for c in counters if c != meal}
    all_visits = False
    for number, paragraph in book.paragraphs.items():
        found: set[str] = set()
        seen: set[int] = set()
        accounted: set[int] = set()
        for node in nodes(paragraph.body):
            kind = type(node)
            if kind is ast.Prose:
                continue
            if kind is ast.Visited:
                target = book.resolve(node.paragraph)
                if target is not None and type(node.paragraph) is ast.ParagraphRef:
                    seen.add(target)
                else:
                    all_visits = True
            use = _counter_use(node, ruleset, accounted)
            if use is not None:
                name, what = use
                if name in uses:
                    uses[name].setdefault(number, set()).add(what)
            for value in _strings_of(node):
                found.add(fold(value))
                if id(node) in accounted:
                    continue
                resolved = _counter(ruleset, value, counters)
                if resolved in uses and use is None:
                    uses[resolved].setdefault(number, set()).add(("other", 0))
        named[number] = found
        visits[number] = seen
    live_names = _closure(edges, named)
    live_visits = _closure(edges, visits)
    cyclic = _cyclic(edges)
    bounds: dict[int, dict[str, int]] = {number: {} for number in book.paragraphs}
    for name, table in uses.items():
        if name in always:
            continue
        reach = _closure(edges, {number: {number} for number in table})
        for number in book.paragraphs:
            bound = _bound(reach.get(number, set()), table, cyclic)
            if bound != INFINITE:
                bounds[number][name] = bound
    return Atoms(
        names={n: frozenset(v) for n, v in live_names.items()},
        visits={n: frozenset(v) for n, v in live_visits.items()},
        bounds=bounds,
        always=frozenset(always),
        items=ruleset.inventory_limit is None,
        all_visits=all_visits,
        enabled=True,
    )


def _bound(reached: set[int], table: dict[int, set], cyclic: set[int]) -> int:
    total = 0
    largest = None
    for number in reached:
        for what, amount in table[number]:
            if what == "other":
                return INFINITE
            if what == "pay":
                if number in cyclic:
                    return INFINITE
                total += amount
            elif what == "compare":
                largest = amount if largest is None else max(largest, amount)
    return total + (largest + 1 if largest is not None else 0)


def _counter_use(node, ruleset, accounted: set[int]) -> tuple[str, tuple] | None:
    """A bounded kind of mention of a counter: ``(counter, ("pay", n))`` for a cost or a
    fixed loss, ``("gain", n)`` for a fixed gain, ``("compare", k)`` for a comparison
    with a number (its ValueRef then accounted for); None for anything else."""
    kind = type(node)
    if kind is ast.Cost and node.counter is not None and node.item is None:
        found = ruleset.resolve(node.counter)
        if found is not None and found[0] == "counter" and node.amount >= 0:
            accounted.add(id(node))
            return found[1], ("pay", node.amount)
    elif kind is ast.ChangeValue and type(node.amount) is ast.Num and node.amount.value >= 0:
        found = ruleset.resolve(node.name)
        if found is not None and found[0] == "counter" and node.op in ("add", "sub"):
            accounted.add(id(node))
            accounted.add(id(node.amount))
            return found[1], ("pay" if node.op == "sub" else "gain", node.amount.value)
    elif kind is ast.Compare:
        sides = (node.left, node.right)
        refs = [s for s in sides if type(s) is ast.ValueRef and not s.initial]
        nums = [s for s in sides if type(s) is ast.Num]
        if len(refs) == 1 and len(nums) == 1:
            found = ruleset.resolve(refs[0].name)
            if found is not None and found[0] == "counter":
                accounted.add(id(refs[0]))
                return found[1], ("compare", max(0, nums[0].value))
    return None


def _counter(ruleset, text: str, counters) -> str | None:
    if text in counters:
        return text
    found = ruleset.resolve(text)
    return found[1] if found is not None and found[0] == "counter" else None


def _strings_of(node) -> list[str]:
    names = getattr(node, "__dataclass_fields__", ())
    return [value for name in names if name != "span" and type(value := getattr(node, name)) is str]


def _cyclic(edges: dict[int, set[int]]) -> set[int]:
    """The paragraphs on a loop of the paragraph graph."""
    from dedale.solve.graph import _components

    numbers = list(edges)
    index = {number: at for at, number in enumerate(numbers)}
    out = [[index[t] for t in edges[n] if t in index] for n in numbers]
    found: set[int] = set()
    for component in _components(out):
        if len(component) > 1 or component[0] in out[component[0]]:
            found.update(numbers[at] for at in component)
    return found
