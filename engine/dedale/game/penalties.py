"""Penalties until an item is found (issue 13 §7): ``> lose 2 SKILL until you find a
weapon`` lowers the stat now (outside fights as well as in them, since it is the stat
itself) and gives back exactly what it took as soon as the hero holds the item — or any
weapon. A hero who already holds it takes no penalty. Each penalty is kept in the game
state as plain data (``{"stat", "amount", "item", "weapon"}``), so saves hold it and the
Adventure Sheets show it; the runner calls :func:`lift_penalties` after every rule line
and on entering a paragraph.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from dedale import ast, events
from dedale.game.cache import folded
from dedale.i18n import message

Gen = Generator[Any, Any, Any]

MAX_PENALTIES = 100
"""At most this many penalties at once (a book setting more replaces the oldest)."""


def start_penalty(runner, statement: ast.Penalty) -> Gen:
    """The handler of ``lose N STAT until …``."""
    ident = runner.resolve(statement.stat, statement.span, ("stat",))[1]
    hero, state = runner.state.hero, runner.state
    if _lifted(runner, statement.item, statement.weapon):
        return None  # the hero already has what the penalty waits for
    old, new = hero.change(ident, -statement.amount)
    key = folded(f"{ident} {statement.item or '*weapon'}")
    taken = old - new + state.penalties.pop(key, {}).get("amount", 0)
    if len(state.penalties) >= MAX_PENALTIES:
        state.penalties.pop(next(iter(state.penalties)))
    state.penalties[key] = {
        "stat": ident,
        "amount": taken,
        "item": statement.item,
        "weapon": statement.weapon,
    }
    if runner.emit:
        yield events.StatChanged(name=ident, old=old, new=new, initial=hero.initial[ident])
        yield events.MessageShown(key="penalty_on", params=penalty_params(runner, key))
    return None


def lift_penalties(runner) -> Gen:
    """Give back every penalty whose item the hero now holds."""
    state = runner.state
    hero = state.hero
    for key, data in list(state.penalties.items()):
        if not _lifted(runner, data.get("item"), bool(data.get("weapon"))):
            continue
        params = penalty_params(runner, key)
        del state.penalties[key]
        stat = data.get("stat")
        if stat not in hero.stats:
            continue  # a save naming a stat this ruleset has not
        old, new = hero.change(stat, int(data.get("amount", 0)))
        if runner.emit:
            yield from runner.flush()
            yield events.MessageShown(key="penalty_off", params=params)
            yield events.StatChanged(name=stat, old=old, new=new, initial=hero.initial[stat])


def penalty_params(runner, key: str) -> tuple[tuple[str, Any], ...]:
    """A penalty's message parameters: the stat, the amount, what lifts it."""
    data = runner.state.penalties[key]
    return (
        ("stat", runner.ruleset.display_name(data["stat"], runner.lang)),
        ("amount", data["amount"]),
        ("until", data["item"] or runner.text("penalty.weapon")),
    )


def penalty_lines(state, ruleset, lang: str) -> list[str]:
    """The penalties as the plain sheet shows them: ``SKILL -2 until a weapon``."""
    shown = []
    for data in state.penalties.values():
        name = ruleset.display_name(str(data.get("stat", "")), lang)
        until = data.get("item") or message(lang, "penalty.weapon")
        amount = data.get("amount", 0)
        shown.append(message(lang, "penalty.shown", stat=name, amount=amount, until=until))
    return shown


def _lifted(runner, item: str | None, weapon: bool) -> bool:
    hero = runner.state.hero
    if weapon:
        return hero.is_armed(runner.ruleset)
    return item is not None and hero.has(runner.item_key(item))
