"""The player's side of a game: pulls events, keeps what the screens show, counts statistics.

A :class:`Session` wraps any object with the interpreter's pull API (``next()``,
``answer(value)``, ``over``, ``outcome``, ``state``). It makes no game decision: it only
remembers what the game reported (the Adventure Sheet, the statistics shown on the ending
screens) so that screens can be redrawn at any time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from dedale import events as ev


class PlayableGame(Protocol):
    """What the player needs from a game (``dedale.game.Game`` provides it)."""

    over: bool

    def next(self) -> ev.Event | ev.Prompt | None: ...

    def answer(self, value: object) -> None: ...


@dataclass
class GameStatistics:
    """Shown on the death and victory screens."""

    paragraphs_read: int = 0
    fights_won: int = 0
    dice_rolled: int = 0
    choices_made: int = 0


@dataclass
class SheetModel:
    """The Adventure Sheet as last reported: stats as (current, initial), counters, items."""

    name: str = ""
    class_name: str = ""
    stats: dict[str, tuple[int, int]] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    items: Counter[str] = field(default_factory=Counter)
    codewords: set[str] = field(default_factory=set)
    worlds: list[str] = field(default_factory=list)
    statuses: list[str] = field(default_factory=list)  # ongoing effects (poisoned...)
    item_numbers: dict[str, int] = field(default_factory=dict)  # numbers noted on items

    def apply(self, event: ev.Event, stat_ids: frozenset[str] = frozenset()) -> None:
        """Update from one event of the game."""
        match event:
            case ev.StatChanged(name=name, new=new, who="counter"):
                self.counters[name] = new
            case ev.StatChanged(name=name, new=new, initial=initial, who="hero"):
                if name in self.counters or (stat_ids and name not in stat_ids):
                    self.counters[name] = new
                else:
                    self.stats[name] = (new, initial)
            case ev.ItemGained(item=item, count=count):
                self.items[item] += count
            case ev.ItemLost(item=item, count=count):
                self.items[item] -= count
                if self.items[item] <= 0:
                    del self.items[item]
            case ev.CodewordChanged(codeword=word, is_set=is_set):
                (self.codewords.add if is_set else self.codewords.discard)(word)
            case ev.WorldEntered(world=world):
                if world not in self.worlds:
                    self.worlds.append(world)
            case ev.MessageShown(key="status_on" | "status_off" as key, params=params):
                status = str(dict(params).get("status", ""))
                if status in self.statuses:
                    self.statuses.remove(status)
                if key == "status_on":
                    self.statuses.append(status)
            case ev.MealEaten(meals_left=left):
                for key in list(self.counters):
                    if key.lower() in {"meals", "provisions", "repas"}:
                        self.counters[key] = left
                        break
                else:
                    self.counters["meals"] = left

    def refresh(self, state: object | None) -> None:
        """Take every value the game state exposes (after a load, an undo, a reload)."""
        if state is None:
            return
        hero = _first(state, "hero")
        if hero is not None:
            self._refresh_hero(hero)
            name = _first(state, "name", "hero_name")
            if isinstance(name, str):
                self.name = name
            worlds = _first(state, "worlds")
            if isinstance(worlds, list | tuple):
                self.worlds = [str(w) for w in worlds]
            words = _first(state, "codewords")
            if isinstance(words, Mapping):
                self.codewords = {str(w) for w in words.values()}
            statuses = _first(state, "statuses")
            if isinstance(statuses, Mapping):
                self.statuses = [str(v.get("status", k)) for k, v in statuses.items()]
            numbers = _first(state, "item_numbers")
            if isinstance(numbers, Mapping):
                self.item_numbers = {str(k): int(v) for k, v in numbers.items()}
            return
        name = _first(state, "hero_name", "name")
        if isinstance(name, str):
            self.name = name
        class_name = _first(state, "class_name", "hero_class")
        if isinstance(class_name, str):
            self.class_name = class_name
        stats = _first(state, "stats")
        if isinstance(stats, Mapping):
            self.stats = {str(k): _current_initial(v) for k, v in stats.items()}
        counters = _first(state, "counters")
        if isinstance(counters, Mapping):
            self.counters = {str(k): int(_current_initial(v)[0]) for k, v in counters.items()}
        items = _first(state, "inventory", "items")
        if isinstance(items, Mapping):
            self.items = Counter({str(k): _count(v) for k, v in items.items() if _count(v) > 0})
        elif isinstance(items, list | tuple):
            self.items = Counter(str(_first(i, "name") or i) for i in items)
        words = _first(state, "codewords")
        if isinstance(words, set | frozenset | list | tuple):
            self.codewords = {str(w) for w in words}
        worlds = _first(state, "worlds_visited", "worlds")
        if isinstance(worlds, set | frozenset | list | tuple | Mapping):
            self.worlds = [str(w) for w in worlds]

    def _refresh_hero(self, hero: object) -> None:
        """A ``dedale.rules.Character``: stats and initial values by id, counters, items."""
        stats, initial = _first(hero, "stats"), _first(hero, "initial")
        if isinstance(stats, Mapping) and isinstance(initial, Mapping):
            self.stats = {k: (int(v), int(initial.get(k, v))) for k, v in stats.items()}
        counters = _first(hero, "counters")
        if isinstance(counters, Mapping):
            self.counters = {str(k): int(v) for k, v in counters.items()}
        items = _first(hero, "items")
        if isinstance(items, Mapping):
            self.items = Counter({str(k): int(v) for k, v in items.items() if int(v) > 0})
        for attr, names in (("class_name", ("class_name",)), ("name", ("name", "hero_name"))):
            value = _first(hero, *names)
            if isinstance(value, str):
                setattr(self, attr, value)


def _first(obj: object, *names: str) -> Any:
    for name in names:
        if isinstance(obj, Mapping) and name in obj:
            return obj[name]
        value = getattr(obj, name, None)
        if value is not None:
            return value
    return None


def _current_initial(value: object) -> tuple[int, int]:
    if isinstance(value, int):
        return value, value
    if isinstance(value, tuple | list) and len(value) == 2:
        return int(value[0]), int(value[1])
    current = _first(value, "current", "value")
    initial = _first(value, "initial", "maximum")
    current = int(current) if isinstance(current, int) else 0
    return current, int(initial) if isinstance(initial, int) else current


def _count(value: object) -> int:
    if isinstance(value, int):
        return value
    count = _first(value, "count", "quantity")
    return int(count) if isinstance(count, int) else 1


class Session:
    """One game being played: the pending prompt, the sheet, the statistics."""

    def __init__(self, game: PlayableGame, stat_ids: frozenset[str] = frozenset()) -> None:
        self.game = game
        self.stat_ids = stat_ids
        self.sheet = SheetModel()
        self.statistics = GameStatistics()
        self.prompt: ev.Prompt | None = None
        self.paragraph: int | None = None
        self.finished = False
        self.outcome: str | None = None
        self.sheet.refresh(getattr(game, "state", None))

    def next(self) -> ev.Event | ev.Prompt | None:
        """The game's next event or prompt (None once the game is over)."""
        if self.prompt is not None:
            return self.prompt
        item = self.game.next()
        if item is None:
            self.finished = True
            self.outcome = self.outcome or getattr(self.game, "outcome", None)
            return None
        if isinstance(item, ev.Prompt):
            self.prompt = item
            self.sheet.refresh(getattr(self.game, "state", None))
        else:
            self._count(item)
            self.sheet.apply(item, self.stat_ids)
        return item

    def answer(self, value: object) -> None:
        """Send the reader's answer to the pending prompt."""
        prompt, self.prompt = self.prompt, None
        if isinstance(prompt, ev.ChoosePrompt):
            self.statistics.choices_made += 1
        self.game.answer(value)

    def resync(self) -> None:
        """Forget the pending prompt and re-read the state (after undo, jump, load)."""
        self.prompt = None
        self.finished = bool(getattr(self.game, "over", False))
        self.sheet.refresh(getattr(self.game, "state", None))

    def _count(self, item: ev.Event) -> None:
        match item:
            case ev.ParagraphEntered(number=number):
                self.paragraph = number
                self.statistics.paragraphs_read += 1
            case ev.DiceRolled(faces=faces):
                self.statistics.dice_rolled += len(faces)
            case ev.FightEnded(outcome="won"):
                self.statistics.fights_won += 1
            case ev.Death():
                self.outcome = "death"
            case ev.Victory():
                self.outcome = "victory"
