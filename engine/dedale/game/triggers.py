"""Item triggers (issue 13 §7): ``take Phoenix Draught (when STAMINA falls to 0: restore
STAMINA)``. While the hero holds the item, the trigger watches a stat or counter; once the
value is at or below its threshold, the change is made and one of the item is used up
(so each piece acts once). The runner calls :func:`fire_triggers` after every rule line
and at the start of each paragraph; a fight is run assault by assault while a trigger is
held, and the hook is called after each assault — so a potion saves the hero from a
mortal wound in a fight as well as from a poison.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from dedale import ast, events
from dedale.rules.character import Character
from dedale.span import Span

Gen = Generator[Any, Any, Any]

_NOWHERE = Span("<trigger>", 1, 1)


def item_triggers(scope, effects: tuple[ast.ItemEffect, ...]) -> tuple:
    """The triggers of a taken item as the hero keeps them (plain data, saved), each name
    checked against the ruleset (an unknown stat is a located error)."""
    found = []
    for effect in effects:
        trigger = effect.trigger
        if trigger is None:
            continue
        ident = scope.resolve(trigger.stat, trigger.span, ("stat", "counter"))[1]
        change = trigger.change
        scope.resolve(change.name, change.span, ("stat", "counter"))
        amount = change.amount
        if isinstance(amount, ast.Num):
            amount = amount.value
        elif isinstance(amount, ast.DiceRoll):
            amount = amount.text
        found.append((ident, trigger.at, change.op, change.name, amount))
    return tuple(found)


def holds_triggers(hero: Character | None) -> bool:
    """Whether the hero holds an item with a trigger."""
    if hero is None or not hero.item_effects:
        return False
    return any(info.triggers and hero.has(name) for name, info in hero.item_effects.items())


def fire_triggers(runner) -> Gen:
    """Make every held trigger whose value is at or below its threshold act (each firing
    uses one of its item up, so this ends); returns how many fired."""
    hero = runner.state.hero
    fired = 0
    if not holds_triggers(hero):
        return fired
    for _ in range(sum(hero.items.values()) + 1):
        due = _due(hero)
        if due is None:
            break
        item, (_, _, op, name, amount) = due
        hero.lose(item, 1)
        fired += 1
        if runner.emit:
            yield from runner.flush()
            yield events.MessageShown(key="trigger_fired", params=(("item", item),))
            yield events.ItemLost(item=item, count=1)
        expr: ast.Expr | None = None
        if isinstance(amount, int):
            expr = ast.Num(span=_NOWHERE, value=amount)
        elif isinstance(amount, str):
            expr = ast.DiceRoll(span=_NOWHERE, text=amount)
        change = ast.ChangeValue(span=_NOWHERE, op=op, name=name, amount=expr)  # type: ignore[arg-type]
        yield from runner._change(change)
    return fired


def _due(hero: Character) -> tuple[str, tuple] | None:
    """The first held item (in the order taken) with a trigger that must act now."""
    for name, info in hero.item_effects.items():
        if not info.triggers or not hero.has(name):
            continue
        for trigger in info.triggers:
            stat, at = trigger[0], trigger[1]
            value = hero.stats.get(stat, hero.counters.get(stat))
            if value is not None and value <= at:
                return name, trigger
    return None
