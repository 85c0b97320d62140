"""How many meals can still be of use: more than that decide nothing (exact).

A reader holding ten meals at the last paragraph that allows a meal can eat at most as many
as heal him to his initial STAMINA; the others are never eaten usefully, so states that
differ only by them have the same value, and the solver keeps the meals as
``min(meals, cap)``. Entering ``P``:

- ``N(P)`` is the most paragraphs that allow a meal a reader can still enter on one path
  from ``P`` (``P`` itself included), on the liveness analysis' paragraph graph;
- in one visit of such a paragraph a meal is eaten only below the initial value (the
  solver never eats at full health: the same state with a meal fewer), each one raises
  STAMINA by at least 1 and by ``heal`` unless it reaches the initial value, so at most
  ``ceil((I - s) / heal)`` meals are eaten in it, ``s`` the STAMINA on arriving (at least
  1 for the hero alive): at most ``ceil((I - 1) / heal)``;
- so ``cap(P) = N(P) × ceil((I - 1) / heal)``, and when ``P`` itself allows meals and
  cannot lower STAMINA, ``ceil((I - s) / heal) + (N(P) - 1) × ceil((I - 1) / heal)`` with
  ``s`` the STAMINA on entering it.

Why the values are equal: with ``m ≥ cap`` meals the reader eats at most ``cap`` of them
below the initial value on any line; with ``min(m, cap)`` he can eat the same ones at the
same moments, so every line of play has the same STAMINA, and the count itself is read by
nothing else (below). More meals are never worse either, so the two values are equal.

It holds (else ``N(P)`` is infinite and nothing is capped) when, from ``P`` on: no paragraph
that allows a meal lies on a loop; each one asks nothing before its choices (its
statements are prose, its meal rule, choices, codewords, flags, Worlds, items gained,
changes of a value and endings: a meal, eaten at its choices, cannot be followed by a wound
inside the visit); the
meals' counter is named only to gain a fixed number of meals (no cost, loss, comparison,
forced meal); the initial STAMINA is never raised or set (``I`` stays what the state says).
It is off for the whole book when meals may be eaten anywhere, when the meals' stat can
pass its initial value (an exceptional gain), when the book has an ongoing rule (a status,
an item trigger, a penalty), or when an item's effect or the ruleset's data names the
meals' counter or stat; and for a state with a status or a penalty on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dedale import ast

INFINITE = -1
"""No cap: a meal paragraph on a loop, or a rule that reads the count, is reachable."""

_HARMLESS = (
    ast.Prose, ast.MealRule, ast.Choice, ast.Goto, ast.SetCodeword, ast.ClearCodeword,
    ast.SetFlag, ast.ClearFlag, ast.OpenWorld, ast.AllowRevisit, ast.Ending,
)  # fmt: skip
_ONGOING = (ast.StatusOn, ast.ItemTrigger, ast.Penalty)


@dataclass(slots=True)
class MealCap:
    """``visits[P]`` = N(P) (``INFINITE``: no cap); ``eating``: the paragraphs that allow
    meals and cannot lower STAMINA before them (the first visit's tighter bound)."""

    counter: str = ""
    stat: str = ""
    heal: int = 0
    visits: dict[int, int] = field(default_factory=dict)
    eating: frozenset[int] = frozenset()
    enabled: bool = False

    def cap(self, data: dict, paragraph: int) -> int:
        """The most meals that can still be of use entering ``paragraph`` (``INFINITE``)."""
        left = self.visits.get(paragraph, INFINITE)
        if not self.enabled or left == INFINITE:
            return INFINITE
        hero = data["hero"]
        if self.stat in hero.get("uncapped", ()) or data.get("statuses") or data.get("penalties"):
            return INFINITE
        initial = hero["initial"].get(self.stat)
        if initial is None:
            return INFINITE
        per_visit = -(-(initial - 1) // self.heal)
        if paragraph in self.eating and left > 0:
            now = max(0, -(-(initial - hero["stats"].get(self.stat, 0)) // self.heal))
            return now + (left - 1) * per_visit
        return left * per_visit

    def prune(self, data: dict, paragraph: int) -> None:
        """Keep ``min(meals, cap)`` in a snapshot's data entering ``paragraph``."""
        counters = data["hero"]["counters"]
        held = counters.get(self.counter, 0)
        if not held:
            return
        cap = self.cap(data, paragraph)
        if cap != INFINITE and held > cap:
            counters[self.counter] = cap

    def signature(self, paragraph: int) -> tuple:
        return (self.visits.get(paragraph, INFINITE), paragraph in self.eating)


def analyse_meals(book, edges: dict[int, set[int]], always: set[str], nodes) -> MealCap:
    """The meal caps of a book over ``edges`` (the liveness analysis' paragraph graph);
    ``always``: the names read everywhere; ``nodes(body)``: the bounded AST walk."""
    meals = book.ruleset.meals
    if meals is None or meals.anywhere or meals.heal <= 0 or meals.counter in always:
        return MealCap()
    from dedale.solve.eager import _reads_stat

    if _reads_stat(book, meals, [1_000_000]):  # a potion of the creation acts on the stat
        return MealCap()
    resolve = book.ruleset.resolve
    counter, stat = meals.counter, meals.stat

    def names(node) -> set[str]:
        found = set()
        for name in getattr(node, "__dataclass_fields__", ()):
            value = getattr(node, name)
            if type(value) is str:
                hit = resolve(value)
                if hit is not None and hit[1] in (counter, stat):
                    found.add(hit[1])
        return found

    eating: set[int] = set()
    tight: set[int] = set()  # meal paragraphs that cannot lower STAMINA before the meal
    broken: set[int] = set()  # a paragraph from which nothing is capped
    for number, paragraph in book.paragraphs.items():
        harmless = lossless = True  # no prompt before its choices; no loss of the stat
        for statement in paragraph.body:
            kind = type(statement)
            if kind is ast.ChangeValue:
                hit = resolve(statement.name)
                lossless = lossless and not (
                    hit is not None and hit[1] == stat and statement.op != "add"
                )
            elif kind is ast.GainItem or kind is ast.Choice:  # a choice's effects may ask
                harmless = harmless and not statement.effects
            elif kind not in _HARMLESS:
                harmless = False
        if harmless and lossless:
            tight.add(number)
        for node in nodes(paragraph.body):
            kind = type(node)
            if kind is ast.MealRule and node.allowed:
                eating.add(number)
            elif kind is ast.ForcedMeal:
                broken.add(number)
            elif kind in _ONGOING:
                return MealCap()  # a rule that may wound or heal at any moment
            elif kind is ast.ItemEffect and (names(node) or _effects_name(node, names)):
                return MealCap()  # an item's bonus on the stat or the meals
            named = names(node)
            if not named:
                continue
            if kind is not ast.ChangeValue:
                if counter in named:
                    broken.add(number)  # a cost, a comparison, a count shown to a rule
                continue
            if counter in named and (node.op != "add" or type(node.amount) is not ast.Num):
                broken.add(number)
            if stat in named and node.op in ("set", "raise_initial"):
                broken.add(number)  # the initial value may rise
            if stat in named and node.op == "add" and node.exceptional:
                return MealCap()  # past the initial value: the count of meals eaten changes
        if number in eating and not harmless:
            broken.add(number)
    return MealCap(
        counter=counter,
        stat=stat,
        heal=meals.heal,
        visits=_longest(edges, eating, broken),
        eating=frozenset(eating & tight),
        enabled=True,
    )


def _effects_name(node, names) -> bool:
    for effect in getattr(node, "effects", ()) or ():
        if names(effect):
            return True
    return False


def _longest(edges: dict[int, set[int]], eating: set[int], broken: set[int]) -> dict[int, int]:
    """For each paragraph the most meal paragraphs on one path from it (``INFINITE`` when
    a loop holds one or a broken paragraph is reachable): over the strongly connected
    components, each after those it leads to."""
    from dedale.solve.graph import _components

    numbers = list(edges)
    index = {number: at for at, number in enumerate(numbers)}
    out = [[index[t] for t in edges[n] if t in index] for n in numbers]
    found: dict[int, int] = {}
    for component in _components(out):
        members = [numbers[at] for at in component]
        looped = len(component) > 1 or component[0] in out[component[0]]
        meals = sum(1 for n in members if n in eating)
        best = 0 if not (looped and meals) else INFINITE
        if any(n in broken for n in members):
            best = INFINITE
        if best != INFINITE:
            for n in members:
                for target in edges[n]:
                    below = found.get(target)
                    if below is None or target in members:
                        continue
                    if below == INFINITE:
                        best = INFINITE
                        break
                    best = max(best, below)
                if best == INFINITE:
                    break
        value = INFINITE if best == INFINITE else best + meals
        for n in members:
            found[n] = value
    return found
