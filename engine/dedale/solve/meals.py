"""When eating a meal now can wait: the solver then does not offer it (exact, by dominance).

Where the ruleset allows meals anywhere, a reader may eat at every choice, and every such
offer would double the states. Eating can wait without loss until just before something
can hurt or read STAMINA or the meals: postponing a meal across plain gains gives the same
STAMINA (``min(min(s + 4, I) + g, I) = min(min(s + g, I) + 4, I)``), across a raised
initial value a better or equal one, and the meal is still there to eat at the next choice.
So at a choice whose every option only turns to a **harmless** paragraph — one that
allows meals (no ``meals forbidden``), whose statements are prose, plain choices (no cost,
no effect, conditions on items, codewords, flags, class or visits only), codewords, flags,
Worlds, items gained plainly, fixed gains, and endings — the reader loses nothing by not
eating now (he can eat at that paragraph's choice with the same meals), and the solver
leaves the meal out there. Ongoing effects (statuses) keep every meal offered.
"""

from __future__ import annotations

from dedale import ast
from dedale.solve.conditions import reads_only

_INERT = (
    ast.Prose,
    ast.SetCodeword,
    ast.ClearCodeword,
    ast.SetFlag,
    ast.ClearFlag,
    ast.OpenWorld,
    ast.AllowRevisit,
    ast.Ending,
)
_PLAIN_CONDITIONS = (ast.HasItem, ast.HasCodeword, ast.HasFlag, ast.HasClass, ast.Visited)


class MealTiming:
    """``harmless(N)``, cached per paragraph, for one book (meals anywhere only)."""

    def __init__(self, book, enabled: bool = True) -> None:
        meals = book.ruleset.meals
        self.book = book
        self.enabled = enabled and bool(meals and meals.anywhere)
        self.stat = meals.stat if meals else None
        self._known: dict[int, bool] = {}

    def can_wait(self, game, targets) -> bool:
        """Whether eating at this choice can wait: every option's target is harmless."""
        if not self.enabled or game.state.statuses or game.state.penalties:
            return False
        return all(self.harmless(target) for target in targets)

    def harmless_all(self, targets) -> bool:
        """Whether every target is harmless (the static paragraphs' check: no status)."""
        return self.enabled and all(self.harmless(target) for target in targets)

    def harmless(self, number) -> bool:
        found = self._known.get(number)
        if found is None:
            found = self._known[number] = self._harmless(number)
        return found

    def _harmless(self, number) -> bool:
        paragraph = self.book.paragraphs.get(number) if type(number) is int else None
        if paragraph is None:
            return False
        for statement in paragraph.body:
            kind = type(statement)
            if kind in _INERT:
                continue
            if kind is ast.Choice:
                if statement.costs or statement.effects:
                    return False
                condition = statement.condition
                if condition is not None and not reads_only(condition, _PLAIN_CONDITIONS):
                    return False
            elif kind is ast.GainItem:
                if statement.effects or statement.weapon:
                    return False
            elif kind is ast.ChangeValue:
                if not self._gain(statement):
                    return False
            else:
                return False
        return True

    def _gain(self, statement: ast.ChangeValue) -> bool:
        """A fixed gain (or raised initial value) that cannot pass the meals' cap."""
        if statement.op not in ("add", "raise_initial") or type(statement.amount) is not ast.Num:
            return False
        if statement.amount.value < 0:
            return False
        found = self.book.ruleset.resolve(statement.name)
        is_meal_stat = found is not None and found[1] == self.stat
        return not (is_meal_stat and statement.exceptional)
