"""The player's side of a game: pulls events, keeps what the screens show, counts statistics.

A :class:`Session` wraps a :class:`dedale.game.Game` (tests may pass a scripted stand-in with
the same pull API and a real :class:`dedale.game.GameState`). It makes no game decision: it
only remembers what the game reported (the Adventure Sheet, the statistics shown on the
ending screens) so that screens can be redrawn at any time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dedale import events as ev
from dedale.player.sheet_content import item_bonuses, item_tags

if TYPE_CHECKING:
    from dedale.game import Game, GameState
    from dedale.rules import Character


@dataclass(frozen=True)
class SheetLayout:
    """What the ruleset puts on the Adventure Sheet, in its order (see ``BookView``)."""

    stats: tuple[str, ...] = ()  # stat ids
    counters: tuple[str, ...] = ()  # counter ids
    worlds: bool = False  # whether the ruleset has Worlds
    meal_counter: str | None = None  # the counter a meal uses up
    meal_stat: str | None = None  # the stat a meal restores
    health: str | None = None  # the stat whose levels are named (reliques)
    health_levels: tuple = ()  # the ruleset's HealthLevel list, first one unhurt
    book_state: Any = None  # the book's own flags and counters (BookState), if any


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
    flags: set[str] = field(default_factory=set)  # the book's own flags set
    counts: dict[str, int] = field(default_factory=dict)  # and its counters moved
    #: penalties until an item is found: (stat id, amount, item or None for a weapon)
    penalties: list[tuple[str, int, str | None]] = field(default_factory=list)
    #: item -> the (stat id, threshold) of its triggers ("when STAMINA falls to 0")
    triggers: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    layout: SheetLayout = field(default_factory=SheetLayout)
    #: stat id -> the (item, amount) bonuses that count toward it (issue 16.7)
    bonuses: dict[str, tuple[tuple[str, int], ...]] = field(default_factory=dict)
    #: item -> its book tags (the sheet's box it goes in)
    item_tags: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def apply(self, event: ev.Event) -> None:
        """Update from one event of the game."""
        stat_ids = self.layout.stats
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
            case ev.MessageShown(key="flag_set" | "flag_cleared" as key, params=params):
                flag = str(dict(params).get("id", ""))
                (self.flags.add if key == "flag_set" else self.flags.discard)(flag)
            case ev.MessageShown(key="count_changed", params=params):
                values = dict(params)
                self.counts[str(values.get("id", ""))] = int(values.get("new", 0))  # type: ignore[call-overload]
            case ev.MealEaten(meals_left=left) if self.layout.meal_counter:
                self.counters[self.layout.meal_counter] = left

    def refresh(self, state: GameState) -> None:
        """Take every value the game state holds (after a prompt, a load, an undo, a reload)."""
        self.name = state.name
        self.worlds = list(state.worlds)
        self.codewords = set(state.codewords.values())
        self.statuses = [str(v.get("status", k)) for k, v in state.statuses.items()]
        self.item_numbers = dict(state.item_numbers)
        self.flags = set(state.flags)
        self.counts = dict(state.counts)
        self.penalties = [
            (str(v.get("stat", "")), int(v.get("amount", 0)), v.get("item"))
            for v in state.penalties.values()
        ]
        if state.hero is not None:
            self._refresh_hero(state.hero)

    def _refresh_hero(self, hero: Character) -> None:
        """Stats (current, initial) by id, counters, items and class of the hero."""
        self.stats = {k: (v, hero.initial.get(k, v)) for k, v in hero.stats.items()}
        self.counters = dict(hero.counters)
        self.items = Counter({k: v for k, v in hero.items.items() if v > 0})
        self.triggers = {
            name: tuple((str(t[0]), int(t[1])) for t in info.triggers)
            for name, info in hero.item_effects.items()
            if info.triggers
        }
        if hero.class_name is not None:
            self.class_name = hero.class_name
        self.bonuses = {stat: b for stat in hero.stats if (b := item_bonuses(hero, stat))}
        self.item_tags = item_tags(hero)


class Session:
    """One game being played: the pending prompt, the sheet, the statistics."""

    def __init__(self, game: Game, layout: SheetLayout | None = None) -> None:
        self.game = game
        self.sheet = SheetModel(layout=layout or SheetLayout())
        self.statistics = GameStatistics()
        self.prompt: ev.Prompt | None = None
        self.paragraph: int | None = None
        self.finished = False
        self.outcome: str | None = None
        self.sheet.refresh(game.state)

    def next(self) -> ev.Event | ev.Prompt | None:
        """The game's next event or prompt (None once the game is over)."""
        if self.prompt is not None:
            return self.prompt
        item = self.game.next()
        if item is None:
            self.finished = True
            self.outcome = self.outcome or self.game.outcome
            return None
        if isinstance(item, ev.Prompt):
            self.prompt = item
            self.sheet.refresh(self.game.state)
        else:
            self._count(item)
            self.sheet.apply(item)
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
        self.finished = self.game.over
        self.sheet.refresh(self.game.state)

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
