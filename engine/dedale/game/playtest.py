"""Author tools for playtesting: jump, edit a value, force dice, god mode.

Each is a decision like any other: :class:`dedale.game.Game` logs it
(``{"action": "jump", "to": 12}``...) and sends a :class:`PlaytestAction` to the runner at
the current choice, so a save replays it exactly. Front ends only call the Game's methods.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dedale import events
from dedale.errors import GameError
from dedale.i18n import tr

if TYPE_CHECKING:
    from dedale.game.runner import Runner

ACTIONS = ("jump", "set", "force", "god")
"""The playtest actions a decision log may hold."""


@dataclass(frozen=True, slots=True)
class PlaytestAction:
    """One playtest action, as logged: ``{"action": kind, **params}``."""

    kind: str
    params: tuple[tuple[str, Any], ...]

    @classmethod
    def from_decision(cls, decision: dict[str, Any]) -> PlaytestAction:
        kind = decision.get("action")
        if kind not in ACTIONS:
            raise GameError(tr("unknown playtest action '{kind}'", kind=kind))
        return cls(str(kind), tuple((k, v) for k, v in decision.items() if k != "action"))

    def get(self, key: str) -> Any:
        return dict(self.params).get(key)


def perform(runner: Runner, action: PlaytestAction) -> Generator[events.Event, Any, int | None]:
    """Carry out ``action`` at a choice; return the paragraph to go to (jump) or None."""
    if action.kind == "jump":
        number = action.get("to")
        if not isinstance(number, int) or number not in runner.book.paragraphs:
            raise GameError(tr("there is no paragraph {number} in this book", number=number))
        return number
    if action.kind == "force":
        faces = [int(face) for face in action.get("faces") or ()]
        runner.rng.force(faces)
        if runner.emit:
            shown = " ".join(str(face) for face in faces)
            yield events.MessageShown(key="forced_dice", params=(("faces", shown),))
        return None
    if action.kind == "god":
        runner.god_mode = bool(action.get("on"))
        if runner.emit:
            key = "god_mode_on" if runner.god_mode else "god_mode_off"
            yield events.MessageShown(key=key, params=())
        return None
    # "set": a stat (exceptional raises allowed) or a counter
    kind, ident = runner.resolve(str(action.get("name")), None, ("stat", "counter"))
    value = int(action.get("value"))
    hero = runner.state.hero
    if kind == "stat":
        old, new = hero.set(ident, value, exceptional=True)
        if runner.emit:
            yield events.StatChanged(name=ident, old=old, new=new, initial=hero.initial[ident])
    else:
        old, new = hero.change_counter(ident, value - hero.counters.get(ident, 0))
        if runner.emit:
            yield events.StatChanged(name=ident, old=old, new=new, initial=new, who="counter")
    return None


def spare(runner: Runner) -> Generator[events.Event, Any, None]:
    """God mode: bring the hero back from 0 health instead of dying."""
    hero = runner.state.hero
    stat = runner.health
    old, new = hero.restore(stat)
    if runner.emit:
        yield events.MessageShown(key="god_mode_spared", params=())
        yield events.StatChanged(name=stat, old=old, new=new, initial=hero.initial[stat])
