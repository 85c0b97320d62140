"""Bounds of every stat and counter along the paths (issue 14.6).

The analysis runs each paragraph body over *bounds*: for every stat and counter, the lowest
and highest value it may have (``lo``..``hi``) and, for a stat, whether it may be below its
initial value. Bounds start from the hero's creation (every class, every roll), and each
directive moves them as the interpreter would move the value (gains stop at the initial
value without ``(exceptional)``, nothing goes below 0, a counter stops at its ``max``). At a
paragraph reached by several paths, the bounds of the paths are joined (the lowest ``lo``,
the highest ``hi``); in a loop a bound that keeps moving is widened to its limit, so the
analysis ends. Whatever it cannot follow (a value the book computes, a new directive) makes
the bounds of what it touches as wide as they can be: the analysis over-approximates, so a
check that finds no path meeting something is sure of it.

While it runs, it records at each site what the paths bring there (the sites of
``resources``): the most of a counter a cost meets, whether a stat condition can hold,
whether a gain meets a stat below its initial value, the meals left at a meal.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from dedale import ast
from dedale.rules.ruleset import fold
from dedale.span import Span
from dedale.validator.budget import CLOCK_EVERY, Deadline
from dedale.validator.graph import Graph, constant_value, dice_bounds, resolve, some_roll_unmatched
from dedale.validator.interval_model import INF, Bound, Model, State, build_model

__all__ = ["INF", "Analysis", "Bound", "Model", "Site", "State", "analyse"]

WIDEN_AFTER = 6  # changes of a paragraph's bounds before a moving bound is widened
MAX_STEPS_PER_PARAGRAPH = 200  # paragraph visits, on average, before the analysis gives up


@dataclass(slots=True)
class Site:
    """What the paths bring to one place of the book (a cost, a condition, a gain...)."""

    paragraph: int
    span: Span
    name: str  # the stat or counter id
    written: str  # as the book writes it
    amount: int = 0
    possible: bool = False  # a condition: some path may meet it
    below: bool = False  # a gain: some path has the stat below its initial value
    most: int = -1  # the highest value met there (-1: never reached)
    least: int = INF  # the lowest value met there
    kind: str = ""


def _amount(expr: ast.Expr | None, number: int) -> tuple[int, int] | None:
    """The least and most an amount can be (None: the validator cannot tell)."""
    if expr is None:
        return (0, 0)
    if isinstance(expr, ast.DiceRoll):
        return dice_bounds(expr.text)
    value = constant_value(expr, number)
    return None if value is None else (value, value)


_QUIET = (
    ast.Prose,
    ast.GainItem,
    ast.LoseItem,
    ast.SetCodeword,
    ast.ClearCodeword,
    ast.OpenWorld,
    ast.AllowRevisit,
    ast.MealRule,
    ast.HiddenParagraph,
    ast.NoteParagraph,
    ast.StatusOff,
    ast.StatusOn,  # its effect is applied on every paragraph entered (see ``enter``)
)


class Analysis:
    """The bounds at every paragraph of one book, and what the sites met."""

    def __init__(
        self,
        graph: Graph,
        book: object,
        model: Model,
        seconds: float | None,
        lost: frozenset[Span] = frozenset(),
    ):
        self.graph = graph
        self.lost = lost  # the fights (by span) no hero can win: their win is never taken
        self.book = book
        self.model = model
        self.ruleset = book.ruleset  # type: ignore[attr-defined]
        self.entry: dict[int, State] = {}
        self.parent: dict[int, int] = {}
        self.sites: dict[tuple[str, Span, str], Site] = {}
        self.victories: set[int] = set()  # victory paragraphs some path reaches alive
        self.deadline = Deadline(seconds)
        self.complete = True
        self.timed_out = False  # stopped by the time budget (else, if not complete, by count)
        self.steps = 0
        self._meal_paragraphs = {
            number
            for number, node in graph.nodes.items()
            if any(isinstance(s, ast.MealRule) and s.allowed for s in node.paragraph.body)
        }

    # ----------------------------------------------------------------- values
    def ident(self, name: str) -> str | None:
        found = self.ruleset.resolve(name)
        return found[1] if found and found[0] in ("stat", "counter") else None

    def havoc(self, state: State, idents) -> State:
        """Every value of ``idents`` as wide as it can be."""
        out = dict(state)
        for ident in idents:
            if ident in out:
                out[ident] = Bound(0, self.model.cap[ident], True)
        return out

    def change(self, number: int, change: ast.ChangeValue, state: State) -> State:
        ident = self.ident(change.name)
        if ident is None or ident not in state:
            return state
        amount = _amount(change.amount, number)
        if amount is None or amount[0] < 0:
            return self.havoc(state, (ident,))
        least, most = amount
        old = state[ident]
        cap = self.model.cap[ident]
        stat = self.model.kinds[ident] == "stat"
        op = change.op
        if op == "add":
            if stat and ident in self.model.capped and not change.exceptional:
                self.site("gain", number, change.span, ident, change.name, least, old)
                new = Bound(old.lo, min(cap, _add(old.hi, most)), old.below)
            else:
                new = Bound(min(cap, old.lo + least), min(cap, _add(old.hi, most)), old.below)
        elif op == "sub":
            hi = max(0, _add(old.hi, -least))
            if stat and ident == self.model.health and self.model.ignore_loss:
                state = self.spend_heroism(state)
                if least <= old.hi:  # a heroism point may cancel a loss the hero survives
                    hi = old.hi
            new = Bound(max(0, old.lo - most), hi, old.below or (stat and most > 0))
        elif op == "set":
            start = self.model.start[ident]
            if stat and ident in self.model.capped:
                new = Bound(min(least, start.lo), min(most, cap), least < cap)
            else:
                new = Bound(min(cap, least), min(cap, most), stat and least < cap)
        elif op == "restore" and stat:
            low = self.model.start[ident].lo if ident in self.model.capped else 0
            new = Bound(low, cap, False)
        elif op == "restore":
            initial = next(c.initial for c in self.ruleset.counters if c.id == ident)
            new = Bound(initial, initial)
        else:
            return self.havoc(state, (ident,))
        out = dict(state)
        out[ident] = new
        return out

    def spend_heroism(self, state: State) -> State:
        """A test, a fight or a loss may spend any heroism point (reliques' Courage...)."""
        spent = self.model.heroism & set(state)
        if not spent:
            return state
        out = dict(state)
        for ident in spent:
            out[ident] = Bound(0, out[ident].hi, out[ident].below)
        return out

    def site(self, kind, number, span, ident, written, amount, bound: Bound) -> Site:
        key = (kind, span, ident)
        site = self.sites.get(key)
        if site is None:
            site = self.sites[key] = Site(number, span, ident, written, amount, kind=kind)
        site.most = max(site.most, bound.hi)
        site.least = min(site.least, bound.lo)
        site.below |= bound.below
        return site

    # ----------------------------------------------------------------- conditions
    def truth(self, number: int, condition: ast.Condition, state: State, record: bool):
        """True, False or None (cannot tell) for ``condition`` in ``state``; records the
        stat comparisons it meets when ``record``."""
        if isinstance(condition, ast.Compare):
            return self.compare(number, condition, state, record)
        if isinstance(condition, ast.Not):
            inner = self.truth(number, condition.operand, state, False)
            return None if inner is None else not inner
        if isinstance(condition, ast.And):
            values = [self.truth(number, op, state, record) for op in condition.operands]
            if False in values:
                return False
            return None if None in values else True
        if isinstance(condition, ast.Or):
            values = [self.truth(number, op, state, False) for op in condition.operands]
            if True in values:
                return True
            return None if None in values else False
        return None

    def compare(self, number: int, condition: ast.Compare, state: State, record: bool):
        left, op, right = condition.left, condition.op, condition.right
        if isinstance(left, ast.Num) and isinstance(right, ast.ValueRef):
            left, right = right, left
            op = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
        if not (isinstance(left, ast.ValueRef) and isinstance(right, ast.Num)) or left.initial:
            return None
        ident = self.ident(left.name) if left.name != "margin" else None
        if ident is None or ident not in state:
            return None
        bound, k = state[ident], right.value
        possible, certain = _possible(bound, op, k)
        if record:
            site = self.site("condition", number, condition.span, ident, left.name, k, bound)
            site.possible |= possible
        return True if certain else (None if possible else False)

    # ----------------------------------------------------------------- bodies
    def targets(self, ref: ast.Destination, number: int) -> list[int | None]:
        if isinstance(ref, ast.ComputedRef):
            value = constant_value(ref.expr, number)
            if value is not None:
                return [value]
            found = [edge.target for edge in self.graph.nodes[number].edges if edge.ref is ref]
            return found or [None]
        return [resolve(self.book, ref)]

    def run(self, number: int, body, state: State, choices: tuple) -> Iterator[tuple]:
        """Outcomes of ``body``: ("go", target, state), ("fall", state, choices), ("end", kind)."""
        if not body:
            yield "fall", state, choices
            return
        for outcome in self.step(number, body[0], state, choices):
            if outcome[0] == "fall":
                yield from self.run(number, body[1:], outcome[1], outcome[2])
            else:
                yield outcome

    def alive(self, state: State) -> bool:
        health = self.model.health
        return health is None or health not in state or state[health].hi > 0

    def step(self, number: int, statement, state: State, choices: tuple) -> Iterator[tuple]:
        if isinstance(statement, _QUIET):
            yield "fall", state, choices
        elif isinstance(statement, ast.ChangeValue):
            meals = self.model.meals
            if statement.op == "sub" and meals in state and self.ident(statement.name) == meals:
                self.site(
                    "meal-loss", number, statement.span, meals, statement.name, 1, state[meals]
                )
            after = self.change(number, statement, state)
            health = self.model.health
            if statement.op == "sub" and health in state and self.ident(statement.name) == health:
                site = self.site(
                    "loss", number, statement.span, health, statement.name, 0, after[health]
                )
                site.amount = max(site.amount, state[health].hi)
            if self.alive(after):
                yield "fall", after, choices
        elif isinstance(statement, ast.Choice):
            yield "fall", state, (*choices, statement)
        elif isinstance(statement, ast.Goto):
            for target in self.targets(statement.target, number):
                yield "go", target, state
        elif isinstance(statement, ast.Ending):
            if statement.kind == "victory":
                self.victories.add(number)
            yield ("end", statement.kind)
        elif isinstance(statement, ast.If):
            value = self.truth(number, statement.condition, state, True)
            if value is not False:
                yield from self.run(number, statement.then, state, choices)
            if value is not True:
                yield from self.run(number, statement.otherwise, state, choices)
        elif isinstance(statement, ast.Test | ast.DuoTest | ast.D20Test | ast.RandomRoll):
            if isinstance(statement, ast.Test) and statement.dice is None:
                state = self.test_cost(statement, state)
            if not isinstance(statement, ast.RandomRoll):
                state = self.spend_heroism(state)
            for branch in statement.branches:
                yield from self.run(number, branch.body, state, choices)
            if some_roll_unmatched(statement):
                yield "fall", state, choices
        elif isinstance(statement, ast.Fight):
            yield from self.fight(number, statement, state, choices)
        elif isinstance(statement, ast.ForcedMeal):
            yield from self.forced_meal(number, statement, state, choices)
        elif isinstance(statement, ast.Shop | ast.Wager):
            self.trade_sites(number, statement, state)
            yield "fall", self.trade(statement, state), choices
        elif isinstance(statement, ast.HiddenNumber):
            for edge in self.graph.nodes[number].edges:
                if edge.span == statement.span:
                    yield "go", edge.target, state
        else:  # a directive this analysis does not know: anything may change, or go on
            wide = self.havoc(state, self.model.kinds)
            for edge in self.graph.nodes[number].edges:
                yield "go", edge.target, wide
            yield "fall", wide, choices

    def trade_sites(self, number: int, statement: ast.Shop | ast.Wager, state: State) -> None:
        """The purchases of a shop and the stake of a bet, as costs (W080): a purchase in a
        shop that sells nothing for the same counter, and the least stake of a bet (1)."""
        if isinstance(statement, ast.Wager):
            ident = self.ident(statement.counter)
            if ident in state:
                self.site(
                    "stake", number, statement.span, ident, statement.counter, 1, state[ident]
                )
            return
        offers = statement.offers
        selling = {self.ident(o.counter) for o in offers if isinstance(o.goods, ast.LoseItem)}
        for offer in offers:
            ident = self.ident(offer.counter)
            if isinstance(offer.goods, ast.GainItem) and ident in state and ident not in selling:
                bound = state[ident]
                self.site("purchase", number, offer.span, ident, offer.counter, offer.price, bound)

    def trade(self, statement: ast.Shop | ast.Wager, state: State) -> State:
        """The bounds after a shop or a bet: a counter only spent may fall to 0; one the shop
        also pays out, as wide as it can be; a stake at most doubles what the hero has."""
        out = dict(state)
        if isinstance(statement, ast.Wager):
            ident = self.ident(statement.counter)
            if ident in out:
                old = out[ident]
                most = min(self.model.cap[ident], old.hi + min(statement.limit, old.hi))
                out[ident] = Bound(0, most, old.below)
            return out
        selling = {
            self.ident(o.counter) for o in statement.offers if isinstance(o.goods, ast.LoseItem)
        }
        for offer in statement.offers:
            ident = self.ident(offer.counter)
            if ident in out:
                old = out[ident]
                wide = ident in selling
                out[ident] = Bound(0, self.model.cap[ident] if wide else old.hi, wide or old.below)
        return out

    def test_cost(self, statement: ast.Test, state: State) -> State:
        test = self.model.test_costs.get(fold(statement.name))
        if test is None or not test[1] or test[0] not in state:
            return state
        old = state[test[0]]
        out = dict(state)
        out[test[0]] = Bound(max(0, old.lo - test[1]), max(0, old.hi - test[1]), True)
        return out

    def fight(self, number: int, statement: ast.Fight, state: State, choices) -> Iterator[tuple]:
        after = self.spend_heroism(state)
        for ident in self.model.fight_stats:
            if ident in after:
                old = after[ident]
                after[ident] = Bound(0, old.hi, True)
        won = statement.span not in self.lost
        for ref in (statement.win if won else None, statement.lose):
            if ref is not None:
                for target in self.targets(ref, number):
                    yield "go", target, after
        extras = (statement.escape, statement.assault_limit, statement.threshold)
        for extra in (*extras, statement.win_assaults):
            if extra is not None:
                for target in self.targets(extra.target, number):
                    yield "go", target, after
        if statement.lose is None:
            yield ("end", "death")
        if statement.win is None and won:
            yield "fall", after, choices

    def forced_meal(self, number: int, statement, state: State, choices) -> Iterator[tuple]:
        meals = self.model.meals
        if meals is None or meals not in state:
            yield "fall", self.change(number, statement.penalty, state), choices
            return
        bound = state[meals]
        self.site("meal", number, statement.span, meals, "", 1, bound)
        if bound.hi >= 1:
            eaten = dict(state)
            eaten[meals] = Bound(max(0, bound.lo - 1), bound.hi - 1)
            yield "fall", eaten, choices
        if bound.lo == 0:
            starved = self.change(number, statement.penalty, state)
            if self.alive(starved):
                yield "fall", starved, choices

    def choose(self, number: int, choice: ast.Choice, state: State) -> Iterator[tuple]:
        """The state after taking ``choice``, if its conditions and costs allow it."""
        if choice.condition is not None:
            if self.truth(number, choice.condition, state, True) is False:
                return
        out = state
        for cost in choice.costs:
            ident = self.ident(cost.counter) if cost.counter else None
            if ident is None or ident not in out:
                continue
            bound = out[ident]
            self.site("cost", number, cost.span, ident, cost.counter, cost.amount, bound)
            if bound.hi < cost.amount:
                return
            out = dict(out)
            out[ident] = Bound(max(bound.lo, cost.amount) - cost.amount, bound.hi - cost.amount)
        for target in self.targets(choice.target, number):
            yield target, out

    # ----------------------------------------------------------------- paragraphs
    def enter(self, number: int, state: State) -> State:
        """The bounds as the paragraph is read: ongoing effects, and meals where allowed."""
        model = self.model
        out = state
        if model.status_sub or model.status_add:
            out = dict(out)
            for ident in model.status_sub & set(out):
                out[ident] = Bound(0, out[ident].hi, True)
            for ident in model.status_add & set(out):
                out[ident] = Bound(out[ident].lo, model.cap[ident], out[ident].below)
        meals = model.meals
        if meals in out and (model.meals_anywhere or number in self._meal_paragraphs):
            if out[meals].hi > 0:
                out = dict(out)
                out[meals] = Bound(0, out[meals].hi)
                stat = model.meal_stat
                if stat in out:
                    out[stat] = Bound(out[stat].lo, model.cap[stat], out[stat].below)
        return out

    def successors(self, number: int, state: State) -> Iterator[tuple[int | None, State]]:
        state = self.enter(number, state)
        body = self.graph.nodes[number].paragraph.body
        for outcome in self.run(number, body, state, ()):
            if outcome[0] == "go":
                yield outcome[1], outcome[2]
            elif outcome[0] == "fall":
                for choice in outcome[2]:
                    yield from self.choose(number, choice, outcome[1])

    def explore(self, starts: list[tuple[int, State]]) -> None:
        changes: dict[int, int] = {}
        queue: deque[int] = deque()
        for number, state in starts:
            if number in self.graph.nodes:
                self.entry[number] = _join(self.entry.get(number), state)
                queue.append(number)
        queued = set(queue)
        limit = MAX_STEPS_PER_PARAGRAPH * max(1, len(self.graph.nodes))
        steps = 0
        while queue:
            steps += 1
            timed_out = steps % CLOCK_EVERY == 0 and self.deadline.passed()
            if steps > limit or timed_out:
                self.complete = False
                self.timed_out = timed_out
                self.steps = steps
                return
            number = queue.popleft()
            queued.discard(number)
            for target, state in self.successors(number, self.entry[number]):
                if target is None or target not in self.graph.nodes:
                    continue
                old = self.entry.get(target)
                new = _join(old, state)
                if new == old:
                    continue
                if old is not None:
                    changes[target] = changes.get(target, 0) + 1
                    if changes[target] > WIDEN_AFTER:
                        new = self.widen(old, new)
                else:
                    self.parent.setdefault(target, number)
                self.entry[target] = new
                if target not in queued:
                    queued.add(target)
                    queue.append(target)

    def widen(self, old: State, new: State) -> State:
        return {
            ident: Bound(
                0 if bound.lo < old[ident].lo else bound.lo,
                self.model.cap[ident] if bound.hi > old[ident].hi else bound.hi,
                bound.below,
            )
            for ident, bound in new.items()
        }

    def path(self, number: int) -> list[int]:
        """A path from a start to ``number`` (the first the analysis found)."""
        path = [number]
        while path[-1] in self.parent and len(path) <= len(self.graph.nodes):
            path.append(self.parent[path[-1]])
        return path[::-1]


def _join(old: State | None, new: State) -> State:
    if old is None:
        return new
    return {ident: bound.join(new[ident]) for ident, bound in old.items()}


def _add(value: int, delta: int) -> int:
    return INF if value >= INF else max(0, min(INF, value + delta))


def _possible(bound: Bound, op: str, k: int) -> tuple[bool, bool]:
    """Whether ``value op k`` may hold, and whether it surely holds, for ``bound``."""
    lo, hi = bound.lo, bound.hi
    if op == ">=":
        return hi >= k, lo >= k
    if op == ">":
        return hi > k, lo > k
    if op == "<=":
        return lo <= k, hi <= k
    if op == "<":
        return lo < k, hi < k
    if op == "=":
        return lo <= k <= hi, lo == hi == k
    return not (lo == hi == k), k < lo or k > hi


def analyse(
    graph: Graph,
    book: object,
    walk,
    hidden: tuple[int, ...],
    seconds: float | None,
    lost: frozenset[Span] = frozenset(),
) -> Analysis | None:
    """Run the analysis from the start (and, as wide as can be, from each hidden paragraph
    a computed number may open), with the fights of ``lost`` never won; None without a
    ruleset or a start."""
    model = build_model(book, graph, walk)
    if model is None or graph.start not in graph.nodes:
        return None
    analysis = Analysis(graph, book, model, seconds, lost)
    wide = analysis.havoc(model.start, model.kinds)
    starts = [(graph.start, dict(model.start))]
    starts += [(number, wide) for number in hidden if number in graph.nodes]
    analysis.explore(starts)
    return analysis
