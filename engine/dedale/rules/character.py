"""The hero's rules state: stats with initial caps, counters, items, class, wear.

The interpreter keeps one :class:`Character` inside its GameState. Stat changes go through
:meth:`Character.change` / :meth:`Character.set`, which never let a stat go below 0 nor
above its initial value (unless ``exceptional=True`` or the ruleset lets that stat exceed
its initial value).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.dice import Bonus, Dice, characteristic_bonus
from dedale.rules.random_source import RandomSource
from dedale.rules.ruleset import ItemDef, Ruleset, fold


@dataclass(slots=True)
class BookItem:
    """What a book says about an item it gives (``weapon``, stat bonuses with tags,
    triggers: ``(stat or counter id, at, op, name, amount)`` — once the value is at or
    below ``at``, the change ``op name amount`` is made and one of the item used up)."""

    weapon: bool = False
    bonuses: tuple[tuple[str, int, str | None], ...] = ()  # (stat, amount, tag)
    tags: tuple[str, ...] = ()  # plain tags: "take Gold Ring (ring)"
    triggers: tuple[tuple[str, int, str, str, int | str | None], ...] = ()


@dataclass
class Character:
    """Mutable hero state. ``stats``/``initial`` by canonical id; ``items`` name -> count."""

    stats: dict[str, int]
    initial: dict[str, int]
    counters: dict[str, int] = field(default_factory=dict)
    items: dict[str, int] = field(default_factory=dict)
    class_name: str | None = None
    fights_with_armour: int = 0
    item_effects: dict[str, BookItem] = field(default_factory=dict)
    protection_worn: dict[str, int] = field(default_factory=dict)
    #: armour item (as held) -> how many fights each piece of it has served (its ``wear``)
    armour_wear: dict[str, list[int]] = field(default_factory=dict)
    trained: set[str] = field(default_factory=set)
    uncapped: frozenset[str] = frozenset()

    # ------------------------------------------------------------------ stats

    def change(self, stat: str, delta: int, *, exceptional: bool = False) -> tuple[int, int]:
        """Add ``delta`` (may be negative) to a stat, clamped; returns ``(old, new)``."""
        return self.set(stat, self.stats[stat] + delta, exceptional=exceptional)

    def set(self, stat: str, value: int, *, exceptional: bool = False) -> tuple[int, int]:
        """Set a stat, clamped to 0..initial; an exceptional raise also lifts the initial."""
        if stat not in self.stats:
            raise GameError(tr("unknown stat '{stat}'", stat=stat))
        old = self.stats[stat]
        value = max(0, value)
        if value > self.initial[stat]:
            if exceptional:
                self.initial[stat] = value
            elif stat not in self.uncapped:
                value = self.initial[stat]
        self.stats[stat] = value
        return old, value

    def restore(self, stat: str) -> tuple[int, int]:
        """Bring a stat back to its initial value."""
        return self.set(stat, self.initial[stat])

    def raise_initial(self, stat: str, delta: int) -> tuple[int, int]:
        """Change the initial value itself (``raise_initial``); current follows if above."""
        old = self.initial[stat]
        self.initial[stat] = max(0, old + delta)
        if self.stats[stat] > self.initial[stat] and stat not in self.uncapped:
            self.stats[stat] = self.initial[stat]
        return old, self.initial[stat]

    def lower_initial(self, stat: str, delta: int) -> tuple[int, int]:
        """Lower the initial value by ``delta`` (never below 0); the current value is brought
        down to it unless the ruleset lets the stat exceed its initial value. Returns the
        current value's ``(old, new)``."""
        if stat not in self.stats:
            raise GameError(tr("unknown stat '{stat}'", stat=stat))
        old = self.stats[stat]
        self.raise_initial(stat, -max(0, delta))
        return old, self.stats[stat]

    # ------------------------------------------------------------------ counters, items

    def change_counter(self, counter: str, delta: int) -> tuple[int, int]:
        """Add to a counter (meals, gold), never below 0; returns ``(old, new)``."""
        old = self.counters.get(counter, 0)
        self.counters[counter] = max(0, old + delta)
        return old, self.counters[counter]

    def gain(self, item: str, count: int = 1, info: BookItem | None = None) -> None:
        self.items[item] = self.items.get(item, 0) + count
        if info is not None:
            self.item_effects[item] = info

    def lose(self, item: str, count: int = 1) -> int:
        """Remove up to ``count``; returns how many were removed (the most worn pieces of
        an armour go first)."""
        have = self.items.get(item, 0)
        removed = min(have, count)
        if have - removed > 0:
            self.items[item] = have - removed
        else:
            self.items.pop(item, None)
        if item in self.armour_wear:
            self.armour_pieces(item)
        return removed

    def armour_pieces(self, item: str) -> list[int]:
        """The fights served by each piece held of an armour item, one entry per piece:
        a piece found later starts at 0, a piece lost takes the most worn entry away."""
        held = self.items.get(item, 0)
        pieces = self.armour_wear.get(item, [])
        if len(pieces) > held:  # the most worn pieces went
            pieces = sorted(pieces, reverse=True)[len(pieces) - held :]
        pieces = pieces + [0] * (held - len(pieces))
        if pieces:
            self.armour_wear[item] = pieces
        else:
            self.armour_wear.pop(item, None)
        return pieces

    def armour_left(self, ruleset: Ruleset) -> dict[str, tuple[int, ...]]:
        """For the sheet: each armour item with a ``wear`` -> fights left per piece."""
        left = {}
        for name in self.items:
            definition = ruleset.item(name)
            if definition is None or definition.wear is None:
                continue
            pieces = self.armour_pieces(name)
            left[name] = tuple(max(0, definition.wear - used) for used in pieces)
        return left

    def has(self, item: str) -> bool:
        return self.items.get(item, 0) > 0

    def item_count(self) -> int:
        return sum(self.items.values())

    def counts_toward_limit(self, item: str, ruleset: Ruleset) -> bool:
        """Whether the inventory limit counts this item: not when its name, one of its book
        tags, its ruleset id or its ruleset kind is in the ruleset's ``inventory_exempt``."""
        exempt = ruleset.inventory_exempt
        if not exempt:
            return True
        if fold(item) in exempt:
            return False
        info = self.item_effects.get(item)
        if info is not None and any(fold(tag) in exempt for tag in info.tags):
            return False
        found = ruleset.resolve(item)
        if found is not None and found[0] == "item":
            definition = ruleset.items[found[1]]
            return fold(found[1]) not in exempt and fold(definition.kind) not in exempt
        return True

    def limited_items(self, ruleset: Ruleset) -> list[str]:
        """The items the inventory limit counts, in the order taken."""
        return [name for name in self.items if self.counts_toward_limit(name, ruleset)]

    def limited_count(self, ruleset: Ruleset) -> int:
        """How many items count toward the inventory limit."""
        return sum(self.items[name] for name in self.limited_items(ruleset))

    # ------------------------------------------------------------------ equipment

    def owned_defs(self, ruleset: Ruleset) -> list[ItemDef]:
        """The ruleset definitions of the items held (unknown items are skipped)."""
        found = []
        for name in self.items:
            definition = ruleset.item(name)
            if definition is not None:
                found.append(definition)
        return found

    def is_armed(self, ruleset: Ruleset) -> bool:
        """Whether the hero holds a weapon (ruleset item of kind weapon, or a book weapon)."""
        for name in self.items:
            info = self.item_effects.get(name)
            if info is not None and info.weapon:
                return True
            definition = ruleset.item(name)
            if definition is not None and definition.kind == "weapon":
                return True
        return False

    def copy(self) -> Character:
        """An independent copy (simulations, odds, the validator)."""
        return Character(
            stats=dict(self.stats),
            initial=dict(self.initial),
            counters=dict(self.counters),
            items=dict(self.items),
            class_name=self.class_name,
            fights_with_armour=self.fights_with_armour,
            item_effects=dict(self.item_effects),
            protection_worn=dict(self.protection_worn),
            armour_wear={name: list(pieces) for name, pieces in self.armour_wear.items()},
            trained=set(self.trained),
            uncapped=self.uncapped,
        )


@dataclass(frozen=True, slots=True)
class StatRoll:
    """One creation roll: the stat, its dice expression, the faces and the value."""

    stat: str
    expression: str
    faces: tuple[int, ...]
    value: int


def create_character(
    ruleset: Ruleset,
    rng: RandomSource,
    class_name: str | None = None,
    fixed: Mapping[str, int] | None = None,
    rolls: list[StatRoll] | None = None,
) -> Character:
    """Roll a new hero: stats per the ruleset (or class), counters, class kit.

    ``fixed`` gives stat values instead of rolling (``--hero 10 20 9``); stats are rolled
    in the ruleset's order, so a roll may use an earlier stat (``CON+CON+CON+CON+CON``).
    When ``rolls`` is given, each roll made is appended to it (for showing the dice).
    """
    fixed = dict(fixed or {})
    klass = None
    if class_name is not None:
        klass = ruleset.classes.get(class_name)
        if klass is None:
            choices = ", ".join(ruleset.classes) or "none"
            raise GameError(
                tr("unknown class '{class_name}'", class_name=class_name),
                hint=tr("classes: {choices}", choices=choices),
            )
    for name in fixed:
        if name not in {s.id for s in ruleset.stats}:
            raise GameError(tr("unknown stat '{name}' in fixed values", name=name))
    stats: dict[str, int] = {}
    for stat in ruleset.stats:
        if stat.id in fixed:
            stats[stat.id] = fixed[stat.id]
            continue
        roll = klass.stats.get(stat.id) if klass else None
        roll = roll or stat.roll
        if roll is None:
            stats[stat.id] = 0
            continue
        total, faces = roll.roll(rng, lambda name: stats[_stat_id(ruleset, name)])
        stats[stat.id] = max(0, total)
        if rolls is not None:
            rolls.append(StatRoll(stat.id, roll.text, faces, stats[stat.id]))
    counters = {c.id: c.initial for c in ruleset.counters}
    items: dict[str, int] = {}
    trained: set[str] = set()
    if klass is not None:
        counters.update(klass.counters)
        for item in klass.kit:
            items[item] = items.get(item, 0) + 1
        trained.update(klass.trained)
    return Character(
        stats=stats,
        initial=dict(stats),
        counters=counters,
        items=items,
        class_name=class_name,
        trained=trained,
        uncapped=frozenset(s.id for s in ruleset.stats if s.may_exceed_initial),
    )


def creation_ranges(ruleset: Ruleset, class_name: str | None = None) -> dict[str, tuple[int, int]]:
    """The lowest and highest value creation can give each stat (by canonical id, in the
    ruleset's order), for the class ``class_name`` if given: ``SKILL 1d6+6`` -> ``(7, 12)``,
    ``HP 8+CON`` -> 8 + the range of CON; a stat without a roll is ``(0, 0)``."""
    klass = ruleset.classes.get(class_name) if class_name is not None else None
    ranges: dict[str, tuple[int, int]] = {}
    for stat in ruleset.stats:
        roll = (klass.stats.get(stat.id) if klass else None) or stat.roll
        if roll is None:
            ranges[stat.id] = (0, 0)
            continue
        low = high = 0
        for sign, term in roll.terms:
            if isinstance(term, int):
                least = most = term
            elif isinstance(term, Dice):
                kept = term.count if term.keep is None else min(term.keep, term.count)
                least, most = kept, kept * term.sides
            else:
                least, most = ranges.get(_stat_id(ruleset, term.name), (0, 0))
                if isinstance(term, Bonus):
                    least, most = characteristic_bonus(least), characteristic_bonus(most)
            if sign < 0:
                least, most = -most, -least
            low, high = low + least, high + most
        ranges[stat.id] = (max(0, low), max(0, high))
    return ranges


def check_creation_values(
    ruleset: Ruleset,
    values: Mapping[str, int],
    class_name: str | None = None,
    lang: str = "en",
) -> None:
    """Raise a GameError naming the first stat whose value creation cannot give (with its
    range); when the class is not known yet, any class's range is allowed."""
    if class_name is None and ruleset.classes:
        options = [creation_ranges(ruleset)]
        options += [creation_ranges(ruleset, name) for name in ruleset.classes]
        ranges = {
            stat: (min(r[stat][0] for r in options), max(r[stat][1] for r in options))
            for stat in options[0]
        }
    else:
        ranges = creation_ranges(ruleset, class_name)
    for stat, value in values.items():
        low, high = ranges.get(stat, (0, 0))
        if not low <= value <= high:
            name = ruleset.display_name(stat, lang)
            raise GameError(
                tr(
                    "{name} {value} is out of reach: creation gives {name} from {low} to {high}",
                    name=name,
                    value=shown_number(value),
                    low=low,
                    high=high,
                ),
                hint=tr(
                    "give a value from {low} to {high}, or play in playtest mode",
                    low=low,
                    high=high,
                ),
            )


def shown_number(value: int) -> str:
    """A typed number as a message may quote it (a huge one is not written out)."""
    if -(10**15) < value < 10**15:
        return str(value)
    return tr("a number too large")


def _stat_id(ruleset: Ruleset, name: str) -> str:
    found = ruleset.resolve(name)
    if found is None or found[0] != "stat":
        raise GameError(tr("unknown stat '{name}' in a creation roll", name=name))
    return found[1]
