"""When eating a meal now is never worse than keeping it: the solver then only eats.

At a choice where a meal may be eaten and the hero lacks at least a whole meal's healing
(STAMINA ≤ initial − heal), eating now dominates keeping the meal, provided more STAMINA
is never worse for the rest of the book. Let A eat now and B keep the meal; A plays as B
does, except that it does not eat B's first meal. Until then A has exactly ``heal`` more
STAMINA than B (damage takes the same from both, A dies only where B dies, and in a fight
A wins every throw of the dice B wins, with more STAMINA left); at B's first meal B gets
``min(B + heal, I) ≤ A``, and from there on they hold the same meals with A ≥ B. That
holds when, from the paragraph on:

- STAMINA (current or initial) is named only to lose some, or to raise the initial value
  (a raise then a gain of at most as much is a raise: A's lead is not capped), and the
  meals only to gain a fixed number: no comparison, test, cost, status, item effect,
  forced meal, restoring or setting (those would read the lead or wipe it out);
- a gain of STAMINA (capped at the initial value, it may cap A's lead) is followed by no
  place where a meal may be eaten (B's kept meal is then worth nothing more);
- every fight is one the hero plays the same whatever his STAMINA: one enemy or several
  in turn (Luck never tested, or tested for the book: A tests where B tests), escapes and
  assault limits decided for the book, several enemies **at once** with the targets and
  Luck decided for the book (:mod:`dedale.solve.group_duel`: A aims where B aims). One
  at once whose target is chosen to win that fight (an assault limit, allies, rules of
  its own, ``--exact``) may trade STAMINA left for a better chance to win
  (le-puits-des-ombres' ghouls: from 7 STAMINA the hero wins more often than from 6, but
  less often with 3 or more left than from 6 with 2 or more): it counts as a place where
  more STAMINA may be worse, so no meal is forced before one. A fight
  whose outcomes come from other rules than the opposed fights' DP marks the solve, which
  is then done again without the reduction (:func:`dedale.solve.graph.solve_book`);
  forcing a meal only removes choices, so a solve cut short by its budget is still a
  lower bound.

The reader still decides between eating and not when a meal would waste some healing.
"""

from __future__ import annotations

from dedale import ast
from dedale.rules.ruleset import OpposedFight
from dedale.solve.liveness import _ANYWHERE, _ONGOING, _closure, _nodes

MAX_NODES = 1_000_000
"""AST nodes walked at most (past it the reduction is off)."""


class _Off(Exception):
    pass


class EagerMeals:
    """``forced(...)`` for one solve (see the module docstring)."""

    def __init__(self, book, luck_policy: str, enabled: bool = True) -> None:
        meals = book.ruleset.meals
        self.book = book
        self.meals = meals
        self.luck_policy = luck_policy
        self.violated = False
        self.used = False
        self._ok: dict[int, bool] = {}
        self.enabled = bool(
            enabled and meals and luck_policy in ("none", "best")
            and isinstance(book.ruleset.fight, OpposedFight)
        )  # fmt: skip
        if self.enabled:
            try:
                self._ok = self._analyse()
            except _Off:
                self.enabled = False

    def forced(self, game, paragraph: int | None) -> bool:
        """Whether the reader at this choice prompt eats now (the only answer kept)."""
        if not self.enabled or paragraph is None or not self._ok.get(paragraph, False):
            return False
        state = game.state
        hero = state.hero
        meals = self.meals
        if state.statuses or state.penalties or meals.stat in hero.uncapped:
            return False
        if hero.counters.get(meals.counter, 0) <= 0:
            return False
        if hero.stats.get(meals.stat, 0) > hero.initial.get(meals.stat, 0) - meals.heal:
            return False
        self.used = True
        return True

    # ------------------------------------------------------------------ the book

    def _analyse(self) -> dict[int, bool]:
        book = self.book
        meals = self.meals
        budget = [MAX_NODES]
        resolve = book.ruleset.resolve

        def names_of(node) -> set[str]:
            found = set()
            for name in getattr(node, "__dataclass_fields__", ()):
                value = getattr(node, name)
                if type(value) is str:
                    hit = resolve(value)
                    if hit is not None and hit[1] in (meals.stat, meals.counter):
                        found.add(hit[1])
            return found

        edges: dict[int, set[int]] = {}
        gains: set[int] = set()
        together: set[int] = set()
        eating: set[int] = set()
        every = set(book.paragraphs)
        for number, paragraph in book.paragraphs.items():
            out: set[int] = set()
            if meals.anywhere:
                eating.add(number)
            for node in _nodes(paragraph.body, budget):
                kind = type(node)
                if kind is ast.Prose:
                    continue
                if kind is ast.ParagraphRef:
                    target = book.resolve(node)
                    if target is not None:
                        out.add(target)
                elif kind in _ANYWHERE:
                    out = every
                elif kind is ast.ForcedMeal or kind in _ONGOING:
                    if kind is ast.ForcedMeal or names_of(node):
                        raise _Off
                elif kind is ast.MealRule and node.allowed:
                    eating.add(number)
                elif kind is ast.Fight and node.threshold is not None:
                    raise _Off
                elif kind is ast.Fight and node.mode == "together" and not self._for_book(node):
                    together.add(number)  # its target is chosen for the fight, not the book
                named = names_of(node)
                if not named:
                    continue
                if kind is not ast.ChangeValue:
                    raise _Off
                if meals.counter in named:
                    if node.op != "add" or type(node.amount) is not ast.Num:
                        raise _Off
                    continue
                if node.op in ("sub", "raise_initial"):
                    continue
                if node.op != "add":
                    raise _Off
                if not _after_raise(paragraph.body, node, resolve, meals.stat):
                    gains.add(number)
            gains |= together
            edges[number] = out
        if any(_reads_stat(book, meals, budget) for _ in (0,)):
            raise _Off
        to_meal = _closure(edges, {n: {"meal"} for n in eating})
        bad = {n for n in gains if "meal" in to_meal.get(n, set()) or n in together}
        to_bad = _closure(edges, {n: {"gain"} for n in bad})
        return {n: "gain" not in to_bad.get(n, set()) for n in book.paragraphs}

    def _for_book(self, fight) -> bool:
        """Whether a fight at once is played with its targets (and Luck) decided for the
        book (:mod:`dedale.solve.group_duel`): no escape, assault limit, allies or rules of
        its own, and not ``--exact`` (whose fractions keep the fight's own choices)."""
        from dedale.solve.exactness import EXACT

        plain = (
            fight.escape is None and fight.assault_limit is None and not fight.allies
            and not fight.rules and fight.threshold is None and fight.win_assaults is None
            and fight.assault_table is None
        )  # fmt: skip
        return plain and not EXACT.get()

    # ------------------------------------------------------------------ fights at once

    def watch(self, oracle, shared: dict | None) -> None:
        """Mark the solve when a fight is played by other rules than the opposed fights'
        (their outcomes are not computed by the oracle's own DP): each outcome the oracle
        computes gets a verdict, kept beside it (``shared``: the heroes of one command
        share both); one found without a verdict counts as a failed check."""
        if not self.enabled:
            return
        verdicts = {} if shared is None else shared.setdefault("eager_verdicts", {})
        original = oracle._outcomes
        pending: list = []

        def outcomes(*args):
            found = original(*args)
            pending.append(True)
            return found

        oracle._outcomes = outcomes
        oracle._memo = _Memo(oracle._memo, verdicts, pending, self)


class _Memo:
    """The oracle's fight outcomes (a dict), each looked up with its verdict."""

    def __init__(self, base: dict, verdicts: dict, pending: list, eager: EagerMeals) -> None:
        self.base, self.verdicts, self.pending, self.eager = base, verdicts, pending, eager

    def get(self, key, default=None):
        found = self.base.get(key, default)
        if found is not None and not self.verdicts.get(key, False):
            self.eager.violated = True
        return found

    def __setitem__(self, key, value) -> None:
        self.base[key] = value
        fine = self.pending.pop() if self.pending else False
        self.pending.clear()
        self.verdicts[key] = fine
        if not fine:
            self.eager.violated = True


def _after_raise(body, node, resolve, stat: str) -> bool:
    """Whether ``node`` (a gain of ``stat`` by a number) follows at once, in the same
    statements, a raise of the initial value by at least as much."""
    if type(node.amount) is not ast.Num:
        return False
    for statements in _lists(body):
        for before, after in zip(statements, statements[1:], strict=False):
            if after is not node or type(before) is not ast.ChangeValue:
                continue
            hit = resolve(before.name)
            if (
                before.op == "raise_initial" and hit is not None and hit[1] == stat
                and type(before.amount) is ast.Num and before.amount.value >= node.amount.value
            ):  # fmt: skip
                return True
    return False


def _lists(body):
    """Every statement list under ``body`` (the paragraph's, its ifs' and choices')."""
    stack = [tuple(body)]
    while stack:
        statements = stack.pop()
        yield statements
        for statement in statements:
            for name in ("then", "otherwise", "effects"):
                inner = getattr(statement, name, None)
                if isinstance(inner, tuple) and inner:
                    stack.append(inner)


def _reads_stat(book, meals, budget) -> bool:
    """Whether the hero's creation gives an item with an effect on the meals' stat (a
    potion the ruleset hands out): treated as a read."""
    items = getattr(book.ruleset, "items", None) or {}
    for value in _strings(items, budget):
        found = book.ruleset.resolve(value)
        if found is not None and found[1] == meals.stat:
            return True
    return False


def _strings(root, budget):
    from dedale.solve.liveness import _strings as strings

    return strings(root, budget)
