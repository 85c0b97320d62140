"""Optional pick-ups and dropping at will (issue 13 §7).

``> you may take Rope`` asks the reader (a yes/no prompt, so the answer is a logged
decision); yes gives the item as ``> take`` does. At a choice, outside fights, the reader may
drop any item he holds: the front end calls :meth:`dedale.game.Game.drop`, which logs
``{"action": "drop", "item": name}`` and sends a :class:`DropAtWill` to the runner, so a
replay drops the same item at the same point.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from dedale import ast, events

Gen = Generator[Any, Any, Any]


@dataclass(frozen=True, slots=True)
class DropAtWill:
    """Sent into the runner at a choice: the reader drops one ``item``."""

    item: str


def may_take(runner, statement: ast.MayTake) -> Gen:
    """The handler of ``you may take …``: ask, then take (or leave) the item."""
    take = statement.take
    shown = runner.item_key(take.item)
    if take.count != 1:
        shown = f"{take.count} {shown}"
    wanted = yield events.YesNoPrompt(kind="take_item", params=(("item", shown),))
    if wanted:
        yield from runner._gain(take)
    return None


def drop_at_will(runner, action: DropAtWill) -> Gen:
    """Drop one of the item the reader named (the game checked that the hero holds it)."""
    hero = runner.state.hero
    removed = hero.lose(action.item, 1)
    if removed and runner.emit:
        yield events.ItemLost(item=action.item, count=removed)


def droppable(runner) -> tuple[str, ...]:
    """The items the reader may drop now: every item held, outside fights."""
    state = runner.state
    if state.hero is None or state.in_fight or not runner.at_choice:
        return ()  # not in a fight, nor at a shop's or a wager's own choice
    return tuple(name for name, count in state.hero.items.items() if count > 0)
