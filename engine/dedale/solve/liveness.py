"""Which of the ruleset's counters a later rule can still read, paragraph by paragraph.

The state of a solve holds only what a later rule reads (docs/solver.md): a counter (gold,
meals) that no statement of any paragraph reachable from ``P`` names, and that the ruleset
does not read itself, is dead on entering ``P``: the solver sets it to 0 in the snapshot,
so that states differing only by it are one node. Conservative by construction:

- a paragraph reaches the paragraphs its statements name (choices, tests, fights, exits,
  every ``ParagraphRef``); one with a computed destination, a hidden number or a noted
  paragraph reaches every paragraph (a World only records that it was entered: it only
  refuses choices into it, and reaches nothing of its own);
- a counter is read by a paragraph when any name in its statements (not its prose) resolves
  to it, or is it, whatever the statement (a gain counts as a read);
- the names inside ongoing rules (statuses, item triggers and effects, "when ... falls to")
  are read everywhere, as is every name the ruleset's own data holds (beyond the counters'
  declarations and the meal rule);
- the meal rule's counter is read where meals may be eaten: everywhere when the ruleset
  allows meals anywhere, else in the paragraphs reachable that allow or force a meal.

Items the same way, for their *count* only: with no inventory limit, an item that every
statement reachable from ``P`` names only to ask whether it is held (``if Rope``) or to give
it plainly (``take Rope``: no weapon, no effect but a number noted on it, the same on every
copy), or to read that number (``number of Rope``), is kept as held once (``clamped(P)``):
two ropes or one decide the same. Any other mention (a cost, a loss, a fight, a shop, a
choice's text), any mention in the ruleset or in an ongoing rule, and a gain with an effect
anywhere in the book, keep its count.
"""

from __future__ import annotations

from typing import Any

from dedale import ast
from dedale.rules.ruleset import fold
from dedale.solve.atoms import Atoms, analyse, folded
from dedale.solve.meal_cap import analyse_meals

MAX_NODES = 2_000_000
"""AST and ruleset nodes walked at most (past it nothing is pruned)."""

_ANYWHERE = (
    ast.ComputedRef,
    ast.HiddenNumber,
    ast.HiddenParagraph,
    ast.NotedParagraph,
)
_ONGOING = (ast.StatusOn, ast.ItemTrigger, ast.ItemEffect, ast.Penalty)
_MEALS = (ast.MealRule, ast.ForcedMeal)


class _TooBig(Exception):
    pass


class Liveness:
    """``dead(P)``: the counter ids no rule reachable from ``P`` reads."""

    def __init__(self, book, enabled: bool = True) -> None:
        self.book = book
        self._dead: dict[int, frozenset[str]] = {}
        self._counted: dict[int, frozenset[str]] = {}  # folded items whose count is read
        self._always_items: set[str] = set()
        self.atoms = Atoms()
        self.clamp_items = book.ruleset.inventory_limit is None
        self.gained: frozenset[str] = frozenset()
        ruleset = book.ruleset
        self.counters = frozenset(c.id for c in ruleset.counters)
        meals = ruleset.meals
        self.meal_counter = meals.counter if meals else None
        self.meals_anywhere = bool(meals and meals.anywhere)
        if not enabled:
            self.counters, self.clamp_items = frozenset(), False
            return
        try:
            self._analyse()
        except _TooBig:
            self.counters, self.clamp_items = frozenset(), False

    def dead(self, paragraph: int) -> frozenset[str]:
        return self._dead.get(paragraph, frozenset())

    def prune(self, data: dict, paragraph: int) -> None:
        """Set, in a snapshot's data, the counters dead on entering ``paragraph`` to 0
        and the items whose count decides nothing there to 1."""
        hero = data["hero"]
        counters = hero["counters"]
        for name in self.dead(paragraph):
            if name in counters:
                counters[name] = 0
        self.atoms.prune(data, paragraph)
        if self.clamp_items:
            items = hero["items"]
            for name, count in items.items():
                if count > 1 and self.clamped(paragraph, name):
                    items[name] = 1

    def same(self, one: int, other: int) -> bool:
        """Whether a snapshot pruned for ``one`` is pruned for ``other`` too."""
        return (
            self.dead(one) == self.dead(other)
            and self._counted.get(one) == self._counted.get(other)
            and self.atoms.signature(one) == self.atoms.signature(other)
        )

    def clamped(self, paragraph: int, item: str) -> bool:
        """Whether the count of ``item`` held on entering ``paragraph`` decides nothing."""
        if not self.clamp_items or paragraph not in self._counted:
            return False
        name = folded(item)
        return (
            name in self.gained
            and name not in self._always_items
            and name not in self._counted[paragraph]
        )

    def _analyse(self) -> None:
        book = self.book
        budget = [MAX_NODES]
        always: set[str] = set()
        for value in _strings(_ruleset_data(book.ruleset), budget):
            always |= self._counters_named(value)
            self._always_items.add(fold(value))
        if self.meals_anywhere and self.meal_counter:
            always.add(self.meal_counter)
        reads: dict[int, set[str]] = {}
        edges: dict[int, set[int]] = {}
        everywhere: set[int] = set()
        counted: dict[int, set[str]] = {}
        for number, paragraph in book.paragraphs.items():
            found: set[str] = set()
            out: set[int] = set()
            count_read: set[str] = set()
            for node in _nodes(paragraph.body, budget):
                kind = type(node)
                if kind is ast.Prose:
                    continue  # (its interpolations are shown, never decide anything)
                if kind is ast.ParagraphRef:
                    target = book.resolve(node)
                    if target is not None:
                        out.add(target)
                elif kind in _ANYWHERE:
                    everywhere.add(number)
                elif kind in _MEALS and self.meal_counter:
                    found.add(self.meal_counter)
                if kind in _ONGOING and not (kind is ast.ItemEffect and _number_only(node)):
                    for value in _strings(node, budget):
                        always |= self._counters_named(value)
                        self._always_items.add(fold(value))
                if kind is ast.GainItem and (node.weapon or not _numbered_only(node)):
                    self._always_items.add(fold(node.item))
                for value in _fields(node):
                    if type(value) is str:
                        found |= self._counters_named(value)
                        if not _presence_only(node):
                            count_read.add(fold(value))
            reads[number] = found
            edges[number] = out
            counted[number] = count_read
        every = set(book.paragraphs)
        for number in everywhere:
            edges[number] = every
        gained = {  # the items a paragraph can give: the only counts ever clamped
            fold(node.item)
            for paragraph in book.paragraphs.values()
            for node in _nodes(paragraph.body, budget)
            if type(node) is ast.GainItem
        }
        self.gained = frozenset(gained)
        counted = {number: names & gained for number, names in counted.items()}
        live = _closure(edges, reads)
        read_counts = _closure(edges, counted)
        for number in book.paragraphs:
            self._dead[number] = frozenset(self.counters - always - live[number])
            self._counted[number] = frozenset(read_counts[number])
        self.atoms = analyse(
            book, edges, always | self._always_items, lambda body: _nodes(body, budget),
            self.counters, self.meal_counter,
        )  # fmt: skip
        self.atoms.meal_cap = analyse_meals(
            book, edges, always, lambda body: _nodes(body, budget)
        )  # the meals past use (dedale.solve.meal_cap)

    def _counters_named(self, text: str) -> set[str]:
        if text in self.counters:
            return {text}
        found = self.book.ruleset.resolve(text)
        if found is not None and found[0] == "counter":
            return {found[1]}
        return set()


def _presence_only(node) -> bool:
    """A statement that names an item only to ask whether it is held, to read the number
    noted on it (the same on every copy; 0 when none is held), or to give it."""
    kind = type(node)
    return (
        (kind is ast.HasItem and node.count == 1) or kind is ast.GainItem or kind is ast.ItemNumber
    )


def _number_only(effect) -> bool:
    """An item's effect that only notes a number on it (``(number 50)``)."""
    return effect.stat is None and effect.tag is None and effect.trigger is None


def _numbered_only(gain) -> bool:
    """A gain whose effects are only numbers: no copy counts more than one."""
    return all(_number_only(effect) for effect in gain.effects)


def _closure(edges: dict[int, set[int]], reads: dict[int, set[str]]) -> dict[int, set[str]]:
    """The names read from each paragraph on (its own reads and every reachable one's):
    one pass over the strongly connected components, each after those it leads to."""
    from dedale.solve.graph import _components

    numbers = list(edges)
    index = {number: at for at, number in enumerate(numbers)}
    out = [[index[t] for t in edges[n] if t in index] for n in numbers]
    live: dict[int, set[str]] = {}
    for component in _components(out):  # the components it leads to come first
        found: set[str] = set()
        members = {numbers[at] for at in component}
        for number in members:
            found |= reads.get(number, set())
            for target in edges[number]:
                if target not in members and target in live:
                    found |= live[target]
        for number in members:
            live[number] = found
    return live


def _ruleset_data(ruleset) -> list[Any]:
    skip = {"counters", "meals", "source", "_index", "_resolved", "title"}
    names = getattr(ruleset, "__dataclass_fields__", {})
    return [getattr(ruleset, name) for name in names if name not in skip]


def _fields(node) -> list[Any]:
    names = getattr(node, "__dataclass_fields__", None)
    if names is None:
        return []
    return [getattr(node, name) for name in names if name != "span"]


def _nodes(root, budget: list[int]):
    """Every AST node under ``root`` (dataclasses, lists, tuples), bounded."""
    stack = [root]
    while stack:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig
        item = stack.pop()
        if isinstance(item, list | tuple):
            stack.extend(item)
        elif hasattr(item, "__dataclass_fields__"):
            yield item
            stack.extend(_fields(item))


def _strings(root, budget: list[int]):
    """Every string under ``root`` (dataclasses, dicts, lists, tuples, sets), bounded."""
    stack = [root]
    while stack:
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooBig
        item = stack.pop()
        if type(item) is str:
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple | set | frozenset):
            stack.extend(item)
        elif hasattr(item, "__dataclass_fields__"):
            stack.extend(_fields(item))
