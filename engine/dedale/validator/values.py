"""The values a computed destination may take (issue 8), for the graph and I019.

A counter that the book *sets* to constants, and changes in no other way (``> set key to
50``), takes its initial value (the ruleset's, or a class's) or one of those constants; any
other change (gain, lose, dice, a cost) makes it unknown, and so does a counter the book
never sets (the author did not mean it as a number to compute with). Stats are rolled, so
unknown. An expression over known counters, numbers and the current paragraph is evaluated
over every combination (at most :data:`MAX_COMBINATIONS`); anything else gives None: the
validator cannot tell. The book's own counters (book.yaml ``state:``) are read the same way,
from their ``start``. A number noted on an item (``take Brass Key (number 50)``) is 0 (not
carried) or one of the numbers the book gives that item.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from dedale import ast
from dedale.rules.ruleset import fold
from dedale.validator.test_forms import ROLL_KEY, roll_values

MAX_COMBINATIONS = 4096


def counter_values(
    book: object, paragraphs: Iterable[ast.Paragraph], walk
) -> dict[str, set[int] | None]:
    """Counter id -> the values it may hold (None: unknown)."""
    ruleset = getattr(book, "ruleset", None)
    if ruleset is None:
        return {}
    values: dict[str, set[int] | None] = {c.id: {c.initial} for c in ruleset.counters}
    is_set: set[str] = set()
    declared = getattr(getattr(book, "meta", None), "state", None)
    for entry in getattr(declared, "counters", ()):  # the book's own (book.yaml `state:`)
        values[book_variable(entry.name)] = {entry.start}
    for klass in getattr(ruleset, "classes", {}).values():
        for ident, amount in (getattr(klass, "counters", None) or {}).items():
            known = values.get(ident)
            if known is not None and isinstance(amount, int):
                known.add(amount)
            elif ident in values:
                values[ident] = None
    for paragraph in paragraphs:
        for statement in walk(paragraph.body):
            if isinstance(statement, ast.GainItem):  # "take Brass Key (number 50)"
                for effect in statement.effects:
                    if effect.number is not None:
                        key = item_variable(statement.item)
                        values.setdefault(key, {0}).add(effect.number)  # type: ignore[union-attr]
                        is_set.add(key)
            if isinstance(statement, ast.ChangeCount):
                key = book_variable(statement.name)
                if statement.op == "set" and isinstance(statement.amount, ast.Num):
                    if values.get(key) is not None:
                        values[key].add(statement.amount.value)  # type: ignore[union-attr]
                        is_set.add(key)
                else:
                    values[key] = None
            changes = [statement]
            if isinstance(statement, ast.StatusOn | ast.ForcedMeal):
                changes = [getattr(statement, "change", None) or statement.penalty]
            for change in changes:
                if not isinstance(change, ast.ChangeValue):
                    continue
                found = ruleset.resolve(change.name)
                if found is None or found[0] != "counter" or values.get(found[1]) is None:
                    continue
                if change.op == "set" and isinstance(change.amount, ast.Num):
                    values[found[1]].add(change.amount.value)  # type: ignore[union-attr]
                    is_set.add(found[1])
                else:
                    values[found[1]] = None
            traded = ()
            if isinstance(statement, ast.Shop):  # the price, and goods that are counters
                traded = tuple(offer.counter for offer in statement.offers)
                traded += tuple(offer.goods.item for offer in statement.offers)
            elif isinstance(statement, ast.Wager | ast.WatchedWager):
                traded = (statement.counter,)
            for name in traded:  # shops and wagers change their counter freely
                found = ruleset.resolve(name)
                if found is not None and found[0] == "counter":
                    values[found[1]] = None
            if isinstance(statement, ast.Choice):
                for cost in statement.costs:
                    found = ruleset.resolve(cost.counter) if cost.counter else None
                    if found is not None and found[0] == "counter":
                        values[found[1]] = None
    return {ident: (known if ident in is_set else None) for ident, known in values.items()}


def possible_values(
    expr: ast.Expr, here: int, book: object, counters: dict[str, set[int] | None]
) -> set[int] | None:
    """Every value ``expr`` may take, or None when the validator cannot tell."""
    names: list[str] = []
    if not _collect(expr, book, names):
        return None
    domains = []
    for name in names:
        domain = roll_values(book, here) if name == ROLL_KEY else counters.get(name)
        if domain is None:
            return None
        domains.append(sorted(domain))
    total = 1
    for domain in domains:
        total *= max(1, len(domain))
    if total > MAX_COMBINATIONS:
        return None
    results: set[int] = set()
    for combination in itertools.product(*domains):
        value = _evaluate(expr, here, book, dict(zip(names, combination, strict=True)))
        if value is not None:
            results.add(value)
    return results


def _collect(expr: ast.Expr, book: object, names: list[str]) -> bool:
    if isinstance(expr, ast.Num | ast.CurrentParagraph):
        return True
    if isinstance(expr, ast.ValueRef):
        key = _book_counter(book, expr.name)
        if key is not None:
            if key not in names:
                names.append(key)
            return True
        found = book.ruleset.resolve(expr.name)  # type: ignore[attr-defined]
        if found is None or found[0] != "counter" or expr.initial:
            return False
        if found[1] not in names:
            names.append(found[1])
        return True
    if isinstance(expr, ast.ItemNumber):
        key = item_variable(expr.item)
        if key not in names:
            names.append(key)
        return True
    if isinstance(expr, ast.BinOp):
        return _collect(expr.left, book, names) and _collect(expr.right, book, names)
    if isinstance(expr, ast.LastRoll):  # ROLL / TIRAGE: the totals of the paragraph's roll
        if ROLL_KEY not in names:
            names.append(ROLL_KEY)
        return True
    return False


def book_variable(name: str) -> str:
    """The key of one of the book's own counters among the counters' values."""
    return "book:" + name


def _book_counter(book: object, name: str) -> str | None:
    declared = getattr(getattr(book, "meta", None), "state", None)
    entry = declared.counter(name) if declared else None
    return book_variable(entry.name) if entry is not None else None


def item_variable(item: str) -> str:
    """The key of an item's noted number among the counters' values."""
    return "item:" + fold(item)


def _evaluate(expr: ast.Expr, here: int, book: object, env: dict[str, int]) -> int | None:
    if isinstance(expr, ast.Num):
        return expr.value
    if isinstance(expr, ast.CurrentParagraph):
        return here
    if isinstance(expr, ast.ValueRef):
        key = _book_counter(book, expr.name)
        if key is not None:
            return env[key]
        return env[book.ruleset.resolve(expr.name)[1]]  # type: ignore[attr-defined]
    if isinstance(expr, ast.ItemNumber):
        return env[item_variable(expr.item)]
    if isinstance(expr, ast.LastRoll):
        return env[ROLL_KEY]
    assert isinstance(expr, ast.BinOp)
    left = _evaluate(expr.left, here, book, env)
    right = _evaluate(expr.right, here, book, env)
    return None if left is None or right is None else expr.apply(left, right)
