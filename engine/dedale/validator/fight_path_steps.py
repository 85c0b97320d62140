"""What one move along the paragraph graph does to the hero, for the path of fights.

:func:`segment` turns a paragraph and the edge the reader leaves it by into a list of
steps, in the order the interpreter runs them: the fights fought on the way (``Fight``),
changes of the hero's health, Luck and meals (``Change``; ``lose 2 STAMINA``, ``gain 1d6
STAMINA``, ``restore LUCK``, ``lose 1 meal``), the Luck a test costs, items taken or lost
(``Item``: they change later fights' attack), a meal the reader may eat at the choice
(``Meal``: where the paragraph or the ruleset allows it), a forced meal (``ForcedMeal``),
and what the chain cannot follow (``Unknown``: the figure becomes ``≈`` with its reason).
The choice's own effects run after its costs, as the runner does. Changes inside an
``if`` or a test branch the path does not take are not counted (``Unknown`` when they
touch the health or Luck).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dedale import ast
from dedale.i18n import Message, tr
from dedale.rules.ruleset import fold
from dedale.validator.fight_path_exits import ways_of
from dedale.validator.fight_path_group import group_route
from dedale.validator.fight_plan import needs_exits
from dedale.validator.graph import Edge, Node, walk

TESTS = (ast.Test, ast.DuoTest, ast.D20Test, ast.RandomRoll)


@dataclass(frozen=True, slots=True)
class Fight:
    """``ways``: for a fight with exits, the ways out that go on along the path (see
    :mod:`dedale.validator.fight_path_exits`); None for the other fights (a win goes on)."""

    paragraph: int
    fight: ast.Fight
    ways: frozenset | None = None


@dataclass(frozen=True, slots=True)
class Change:
    """``what``: ``health``, ``luck`` or ``meals``; ``law``: the amount's distribution
    (None for ``restore``)."""

    what: str
    op: str
    law: tuple[tuple[int, float], ...] | None
    exceptional: bool = False


@dataclass(frozen=True, slots=True)
class Meal:
    """The reader may eat meals here (at the choice prompt, as many as he likes)."""


@dataclass(frozen=True, slots=True)
class ForcedMeal:
    """One meal is used up; without one, ``penalty`` (a Change, or None: not followed)."""

    penalty: Change | None


@dataclass(frozen=True, slots=True)
class Item:
    item: str  # folded
    gained: bool


@dataclass(frozen=True, slots=True)
class Dose:
    """Doses of the book's potion taken (``count`` > 0) or lost (< 0) — see
    :mod:`dedale.validator.fight_path_potion`."""

    paragraph: int
    item: str  # folded
    count: int


@dataclass(frozen=True, slots=True)
class Unknown:
    paragraph: int
    reason: Message


Step = Fight | Change | Meal | ForcedMeal | Item | Dose | Unknown


class Tracked:
    """Which stat or counter ids the chain follows: health, Luck and meals."""

    def __init__(self, ruleset: object) -> None:
        fight = getattr(ruleset, "fight", None)
        self.ruleset = ruleset
        self.health = getattr(fight, "health", None)
        tests = getattr(ruleset, "tests", {}) or {}
        luck_test = tests.get(getattr(fight, "luck_test", None) or "")
        self.luck = luck_test.stat if luck_test is not None else None
        meals = getattr(ruleset, "meals", None)
        self.meals = meals.counter if meals is not None else None
        self.meals_anywhere = bool(meals is not None and meals.anywhere)
        stats = getattr(ruleset, "stats", ()) or ()
        self.health_capped = not any(
            getattr(stat, "id", None) == self.health and getattr(stat, "may_exceed_initial", False)
            for stat in stats
        )

    def what(self, name: str) -> str | None:
        found = self.ruleset.resolve(name)  # type: ignore[attr-defined]
        if found is None:
            return None
        ident = found[1]
        if ident == self.health:
            return "health"
        if ident == self.luck:
            return "luck"
        if ident == self.meals:
            return "meals"
        return None

    def test_cost(self, test: ast.Test) -> int:
        """The Luck a test of the ruleset's costs (0: not the Luck stat, or free)."""
        if test.dice is not None:
            return 0
        ident = self.ruleset.resolve(test.name)  # type: ignore[attr-defined]
        tests = getattr(self.ruleset, "tests", {}) or {}
        found = tests.get(ident[1]) if ident is not None and ident[0] == "test" else None
        if found is None or found.stat != self.luck:
            return 0
        return max(0, found.cost)


def _law(expr: ast.Expr | None) -> tuple[tuple[int, float], ...] | None | str:
    """The distribution of a change's amount; ``"?"`` when it depends on the game."""
    if isinstance(expr, ast.Num):
        return ((expr.value, 1.0),)
    if isinstance(expr, ast.DiceRoll):
        from dedale.errors import DedaleError
        from dedale.rules.dice import parse_dice

        try:
            dice = parse_dice(expr.text)
        except DedaleError:
            return "?"
        if dice.names:
            return "?"
        law: dict[int, Fraction] = dice.distribution()
        return tuple((value, float(p)) for value, p in sorted(law.items()))
    return "?"


def change_step(statement: ast.ChangeValue, tracked: Tracked, number: int) -> Step | None:
    """The step of a ``> lose 2 STAMINA`` line (None: it changes nothing the chain follows)."""
    what = tracked.what(statement.name)
    if what is None:
        return None
    if statement.op == "restore":
        return Change(what, "restore", None)
    law = _law(statement.amount)
    if law == "?" or statement.op not in ("add", "sub", "set"):
        why = tr("a change of {name} the chain cannot follow", name=statement.name)
        return Unknown(number, why)
    return Change(what, statement.op, law, statement.exceptional)  # type: ignore[arg-type]


def trigger_reason(gain: ast.GainItem, tracked: Tracked) -> Message | None:
    """Why an item that acts when the health or Luck falls makes the figure ``≈`` (its
    use, in a fight or between fights, is not counted), or None."""
    for effect in gain.effects:
        trigger = effect.trigger
        if trigger is not None and tracked.what(trigger.stat) in ("health", "luck"):
            return tr(
                "{item} acts when {name} falls: its use is not counted",
                item=gain.item,
                name=trigger.stat,
            )
    return None


def _touches(statements, tracked: Tracked) -> bool:
    """Whether statements change the health or Luck (or fight)."""
    for statement in walk(statements):
        if isinstance(statement, ast.Fight):
            return True
        if isinstance(statement, ast.ChangeValue) and tracked.what(statement.name) in (
            "health",
            "luck",
        ):
            return True
    return False


def _holds(statement: ast.Statement, edge: Edge) -> bool:
    """Whether the edge leaves through this statement (or one nested in it)."""
    for inner in walk((statement,)):
        if inner is edge.choice:
            return True
        if isinstance(inner, ast.Goto) and inner.target is edge.ref:
            return True
        if isinstance(inner, ast.Fight) and edge.ref in _fight_refs(inner):
            return True
        if isinstance(inner, ast.HiddenNumber) and edge.span == inner.span:
            return True
    return False


def _fight_refs(fight: ast.Fight) -> list:
    from dedale.validator.fight_path_exits import fight_ways

    refs = [fight.win, fight.lose]
    if fight.escape is not None:
        refs.append(fight.escape.target)
    refs += [ref for _, ref in fight_ways(fight)]  # the exits (issue 14.4)
    return [ref for ref in refs if ref is not None]


class Segments:
    """The steps of each (paragraph, edge) of one book, memoised."""

    def __init__(self, ruleset: object, book: object = None) -> None:
        from dedale.validator.fight_path_potion import BookPotions

        self.tracked = Tracked(ruleset)
        self.book = book
        self.potions = BookPotions(book, self.tracked)
        self.cache: dict[tuple[int, int], tuple[Step, ...]] = {}

    def of(self, node: Node, edge: Edge | None) -> tuple[Step, ...]:
        """The steps from entering ``node`` to leaving it by ``edge`` (None: to its
        ``> victory``)."""
        key = (node.number, id(edge))
        found = self.cache.get(key)
        if found is not None:
            return found
        steps: list[Step] = []
        meal = [self.tracked.meals_anywhere]
        leaves = self._block(node.number, node.paragraph.body, edge, steps, meal)
        if edge is not None and edge.choice is not None and not leaves:
            if meal[0] and self.tracked.meals is not None:
                steps.append(Meal())
            for statement in edge.choice.effects:  # run when the choice is taken
                self._plain(node.number, statement, steps, meal)
        found = self.cache[key] = tuple(steps)
        return found

    def _block(self, number: int, body, edge: Edge | None, steps: list, meal: list) -> bool:
        """Add the steps of ``body`` up to the statement the edge leaves by; True when it
        left (a goto, a fight won, a branch) before the choices."""
        for statement in body:
            if isinstance(statement, ast.Choice | ast.Prose):
                continue
            if isinstance(statement, ast.MealRule):
                meal[0] = statement.allowed
                continue
            holds = edge is not None and edge.choice is None and _holds(statement, edge)
            if isinstance(statement, ast.Goto | ast.Ending):
                return True
            if isinstance(statement, ast.Fight):
                ways = None
                allies_at_once = bool(statement.allies) and group_route(statement)
                if needs_exits(statement) or allies_at_once:  # the ways out along the edge
                    ways = ways_of(statement, edge if holds else None, self.book)
                steps.append(Fight(number, statement, ways))
                if holds or statement.win is not None:
                    return True
                continue
            if isinstance(statement, TESTS):
                if isinstance(statement, ast.Test) and self.tracked.test_cost(statement):
                    cost = self.tracked.test_cost(statement)
                    steps.append(Change("luck", "sub", ((cost, 1.0),)))
                branch = self._branch(statement, edge) if holds else None
                if branch is not None:
                    self._block(number, branch.body, edge, steps, meal)
                    return True
                if any(_touches(b.body, self.tracked) for b in statement.branches):
                    steps.append(Unknown(number, tr("a test whose outcome changes the hero")))
                continue
            if isinstance(statement, ast.If):
                if holds:
                    then = any(_holds(s, edge) for s in statement.then)  # type: ignore[arg-type]
                    self._block(
                        number, statement.then if then else statement.otherwise, edge, steps, meal
                    )
                    return True
                if _touches((*statement.then, *statement.otherwise), self.tracked):
                    steps.append(Unknown(number, tr("a condition that changes the hero")))
                continue
            if holds:
                return True
            self._plain(number, statement, steps, meal)
        return False

    def _branch(self, test, edge: Edge):
        for branch in test.branches:
            if any(_holds(s, edge) for s in branch.body):
                return branch
        return None

    def _plain(self, number: int, statement: ast.Statement, steps: list, meal: list) -> None:
        if isinstance(statement, ast.ChangeValue):
            step = change_step(statement, self.tracked, number)
            if step is not None:
                steps.append(step)
        elif isinstance(statement, ast.GainItem | ast.MayTake):
            gain = statement if isinstance(statement, ast.GainItem) else statement.take
            name = fold(gain.item)
            steps.append(Item(name, True))
            if name in self.potions.items:
                steps.append(Dose(number, name, gain.count))
                return
            why = self.potions.reasons.get(name) or trigger_reason(gain, self.tracked)
            if why is not None:
                steps.append(Unknown(number, why))
        elif isinstance(statement, ast.LoseItem):
            name = fold(statement.item)
            steps.append(Item(name, False))
            if name in self.potions.items:
                steps.append(Dose(number, name, -statement.count))
        elif isinstance(statement, ast.Shop):
            for offer in statement.offers:
                goods = offer.goods
                if isinstance(goods, ast.GainItem) and (
                    fold(goods.item) in self.potions.items
                    or trigger_reason(goods, self.tracked) is not None
                ):
                    why = tr("{item} bought in a shop: its use is not counted", item=goods.item)
                    steps.append(Unknown(number, why))
        elif isinstance(statement, ast.ForcedMeal):
            penalty = change_step(statement.penalty, self.tracked, number)
            steps.append(ForcedMeal(penalty if isinstance(penalty, Change) else None))
        elif isinstance(statement, ast.MealRule):
            meal[0] = statement.allowed
