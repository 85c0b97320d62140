"""What the ruleset and the book say about each stat and counter, for the bounds analysis
(:mod:`dedale.validator.intervals`): where each starts (every class, every creation roll),
the most it can ever be, what a fight, a test or a heroism point may spend, the meals."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from dedale import ast
from dedale.rules.character import creation_ranges
from dedale.rules.ruleset import fold
from dedale.validator.graph import Graph

INF = 10**9  # "no upper bound"


@dataclass(frozen=True, slots=True)
class Bound:
    """What a stat or counter may be: ``lo``..``hi`` (``hi`` INF: no limit); ``below``: a
    stat may be below its initial value."""

    lo: int
    hi: int
    below: bool = False

    def join(self, other: Bound) -> Bound:
        return Bound(min(self.lo, other.lo), max(self.hi, other.hi), self.below or other.below)


State = dict[str, Bound]


State = dict[str, Bound]


@dataclass(slots=True)
class Model:
    """What the ruleset and the book say about each stat and counter."""

    kinds: dict[str, str] = field(default_factory=dict)  # id -> "stat" | "counter"
    start: State = field(default_factory=dict)
    cap: dict[str, int] = field(default_factory=dict)  # the most a value can ever be
    capped: set[str] = field(default_factory=set)  # stats whose gains stop at the initial
    health: str | None = None
    ignore_loss: bool = False  # a heroism point may cancel a loss of health
    heroism: set[str] = field(default_factory=set)  # counters spent in tests, fights, losses
    fight_stats: set[str] = field(default_factory=set)  # what a fight may lower
    test_costs: dict[str, tuple[str, int]] = field(default_factory=dict)  # folded name ->
    meals: str | None = None
    meal_stat: str | None = None
    meals_anywhere: bool = False
    status_sub: set[str] = field(default_factory=set)
    status_add: set[str] = field(default_factory=set)


def build_model(book: object, graph: Graph, walk) -> Model | None:
    """The Model of ``book`` (None without a ruleset)."""
    ruleset = getattr(book, "ruleset", None)
    if ruleset is None or not hasattr(ruleset, "resolve"):
        return None
    model = Model()
    classes = list(getattr(ruleset, "classes", None) or {}) or [None]
    raised: set[str] = set()  # stats an exceptional gain or raise may lift over creation
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            for change in _changes(statement):
                found = ruleset.resolve(change.name)
                if found and (change.exceptional or change.op == "raise_initial"):
                    raised.add(found[1])
            if isinstance(statement, ast.StatusOn):
                found = ruleset.resolve(statement.change.name)
                if found:
                    (model.status_add if statement.change.op == "add" else model.status_sub).add(
                        found[1]
                    )
    for stat in ruleset.stats:
        lows, highs = zip(*(creation_ranges(ruleset, c)[stat.id] for c in classes), strict=True)
        model.kinds[stat.id] = "stat"
        model.start[stat.id] = Bound(min(lows), max(highs))
        uncapped = stat.may_exceed_initial or stat.id in raised
        model.cap[stat.id] = INF if uncapped else max(highs)
        if not uncapped:
            model.capped.add(stat.id)
    for counter in ruleset.counters:
        values = [counter.initial]
        for klass in (getattr(ruleset, "classes", None) or {}).values():
            amount = (getattr(klass, "counters", None) or {}).get(counter.id)
            if isinstance(amount, int):
                values.append(amount)
        model.kinds[counter.id] = "counter"
        most = counter.maximum if counter.maximum is not None else INF
        model.cap[counter.id] = most
        model.start[counter.id] = Bound(max(0, min(values)), min(most, max(values)))
    fight = getattr(ruleset, "fight", None)
    model.health = getattr(fight, "health", None)
    heroism = getattr(ruleset, "heroism", None) or {}
    model.ignore_loss = bool(heroism.get("ignore_loss"))
    for name in heroism.values():
        found = ruleset.resolve(str(name))
        if found and found[0] == "counter":
            model.heroism.add(found[1])
    for test in (getattr(ruleset, "tests", None) or {}).values():
        for written in (test.id, *test.names.values()):
            model.test_costs[fold(written)] = (test.stat, test.cost)
        if test.cost:
            model.fight_stats.add(test.stat)  # Luck may be tested in a fight
    if model.health:
        model.fight_stats.add(model.health)
    meals = getattr(ruleset, "meals", None)
    if meals is not None:
        model.meals, model.meal_stat = meals.counter, meals.stat
        model.meals_anywhere = bool(meals.anywhere)
    return model


def _changes(statement: object) -> Iterator[ast.ChangeValue]:
    if isinstance(statement, ast.ChangeValue):
        yield statement
    elif isinstance(statement, ast.StatusOn):
        yield statement.change
    elif isinstance(statement, ast.ForcedMeal):
        yield statement.penalty
