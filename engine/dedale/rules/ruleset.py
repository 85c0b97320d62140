"""The Ruleset: a validated, immutable view of a ruleset YAML (see docs/rulesets.md).

Built by :func:`dedale.rules.loader.load_ruleset`; the mechanisms (tests, fights, odds) read
their parameters here and never test a ruleset or class name.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from dedale.rules.dice import DiceExpr


@lru_cache(maxsize=1 << 16)
def fold(name: str) -> str:
    """Case-, accent- and spacing-insensitive form of a name (for lookups). Kept for the
    last 65,536 names: a validation folds the same few hundred names thousands of times
    (the df48.5 book of tools/bench: 8,947 calls, 187 names; issue 14.11)."""
    decomposed = unicodedata.normalize("NFKD", name.strip().casefold())
    text = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(text.replace("’", "'").split())


Names = MappingProxyType  # lang -> display name


@dataclass(frozen=True, slots=True)
class StatDef:
    """A stat (``SKILL``): display names, aliases, creation roll, cap rule, and its kind
    (``physical`` or ``mental``: which tests it makes mental, see Ruleset.test_kind)."""

    id: str
    names: dict[str, str]
    aliases: tuple[str, ...] = ()
    roll: DiceExpr | None = None
    may_exceed_initial: bool = False
    kind: str = "physical"


@dataclass(frozen=True, slots=True)
class CounterDef:
    """A counter (meals, gold): display names, aliases, initial value, and the most the
    hero may hold (``max``: a carried-provisions limit; None: no limit)."""

    id: str
    names: dict[str, str]
    aliases: tuple[str, ...] = ()
    initial: int = 0
    maximum: int | None = None
    singular: dict[str, str] = field(default_factory=dict)
    """The name of one (``Gold piece`` / ``Pièce d'or``), by language: "costs 1 Gold piece"."""


@dataclass(frozen=True, slots=True)
class Ability:
    """A modifier with a trigger: ``when`` (modifier, fight, unarmed, first_assault,
    first_successful_assault), an optional ``tag``, an ``effect`` and a ``value``."""

    when: str
    effect: str
    tag: str | None = None
    value: int = 0
    spellings: frozenset[str] = frozenset()  # folded names of ``tag`` (ruleset ``tags:``)

    def acts_on(self, tags: tuple[str, ...]) -> bool:
        """Whether a modifier with these tags (as the author wrote them) is this ability's."""
        if self.tag in tags:
            return True
        return bool(self.spellings) and any(fold(tag) in self.spellings for tag in tags)


@dataclass(frozen=True, slots=True)
class ItemDef:
    """An item the ruleset knows: kind (weapon, armour, shield, other) and its effects."""

    id: str
    names: dict[str, str]
    aliases: tuple[str, ...] = ()
    kind: str = "other"
    damage: DiceExpr | None = None
    reduction: int = 0
    action_malus: int = 0
    protection: int = 0
    wear: int | None = None
    abilities: tuple[Ability, ...] = ()


@dataclass(frozen=True, slots=True)
class RollUnderTest:
    """A roll-under test: ``dice <= stat`` (+modifiers); costs ``cost`` of the stat."""

    id: str
    names: dict[str, str]
    stat: str
    dice: DiceExpr
    cost: int = 0
    outcomes: dict[str, dict[str, str]] = field(default_factory=dict)  # "lucky", "Chanceux"


@dataclass(frozen=True, slots=True)
class DuoTest:
    """Reliques action test parameters."""

    dice: DiceExpr
    target_min: int = 2
    target_max: int = 12
    difficulty_min: int = -4
    difficulty_max: int = 4
    critical_success: tuple[int, ...] = (1, 1)
    critical_failure: tuple[int, ...] = (6, 6)
    stat_min: int = 1
    stat_max: int = 6


@dataclass(frozen=True, slots=True)
class Difficulty:
    id: str
    value: int | None  # None = obvious, no roll
    names: dict[str, str]


@dataclass(frozen=True, slots=True)
class D20Test:
    """d20 action roll parameters."""

    trained: DiceExpr
    untrained: DiceExpr
    critical_margin: int = 5
    action_stat: str = "ACTION"
    difficulties: tuple[Difficulty, ...] = ()


@dataclass(frozen=True, slots=True)
class LuckTable:
    lucky: int
    unlucky: int


@dataclass(frozen=True, slots=True)
class OpposedFight:
    """FF-family fight parameters (procedure ``opposed``)."""

    health: str = "STAMINA"
    attack_stat: str = "SKILL"
    dice: DiceExpr | None = None
    damage_to_enemy: int = 2
    damage_to_hero: int = 2
    luck_test: str | None = "luck"
    luck_wounding: LuckTable | None = None
    luck_wounded: LuckTable | None = None
    instant_kill_on_double: bool = False
    unarmed_penalty: int = 0
    together_damage: int = 2
    escape_damage: int = 2
    escape_luck: bool = True


@dataclass(frozen=True, slots=True)
class D20Fight:
    """d20 fight parameters (procedure ``d20``)."""

    health: str = "HP"
    attack_stat: str = "FOR"
    defence_stat: str = "DEX"
    action_stat: str = "ACTION"
    dice: DiceExpr | None = None
    base_ac: int = 10
    automatic_lead: int = 10
    critical_face: int = 20
    critical_multiplier: int = 2
    unarmed_damage: DiceExpr | None = None
    enemy_keys: dict[str, tuple[str, ...]] = field(default_factory=dict)
    enemy_key_names: dict[str, dict[str, str]] = field(default_factory=dict)  # by language


@dataclass(frozen=True, slots=True)
class ReliquesFight:
    """Reliques fight parameters (procedure ``reliques``)."""

    health: str = "HEALTH"
    initiative: tuple[str, str] = ("AGL", "PER")
    attack: tuple[str, str] = ("FOR", "AGL")
    dodge: tuple[str, str] = ("AGL", "PER")
    parry: tuple[str, str] = ("FOR", "AGL")
    actions_stat: str = "AGL"
    actions: tuple[tuple[int, int], ...] = ((2, 1), (4, 2), (6, 3))
    unarmed_damage: int = 1
    enemy_keys: dict[str, tuple[str, ...]] = field(default_factory=dict)
    enemy_key_names: dict[str, dict[str, str]] = field(default_factory=dict)  # by language


FightParams = OpposedFight | D20Fight | ReliquesFight


@dataclass(frozen=True, slots=True)
class HealthLevel:
    id: str
    names: dict[str, str]
    malus: int = 0


@dataclass(frozen=True, slots=True)
class ClassDef:
    """A character class: stat rolls, counters, kit, abilities."""

    id: str
    names: dict[str, str]
    description: dict[str, str]
    stats: dict[str, DiceExpr]
    counters: dict[str, int]
    kit: tuple[str, ...]
    abilities: tuple[Ability, ...]
    trained: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MealRule:
    counter: str = "meals"
    stat: str = "STAMINA"
    heal: int = 4
    anywhere: bool = False


@dataclass(frozen=True)
class Ruleset:
    """A validated ruleset. ``source`` holds the merged raw data (for debugging/docs)."""

    name: str
    title: dict[str, str]
    stats: tuple[StatDef, ...]
    counters: tuple[CounterDef, ...]
    tests: dict[str, RollUnderTest]
    duo: DuoTest | None
    d20: D20Test | None
    fight: FightParams
    classes: dict[str, ClassDef]
    items: dict[str, ItemDef]
    inventory_limit: int | None
    meals: MealRule | None
    worlds: bool
    health_levels: tuple[HealthLevel, ...] = ()
    heroism: dict[str, str] = field(default_factory=dict)
    tags: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: folded item names and tags the inventory limit does not count (rings, keys...)
    inventory_exempt: tuple[str, ...] = ()
    source: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    _index: dict[str, tuple[str, str]] = field(default_factory=dict, repr=False, compare=False)
    _resolved: dict[str, tuple[str, str] | None] = field(
        default_factory=dict, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        index = self._index
        for kind, entries in (
            ("stat", self.stats),
            ("counter", self.counters),
            ("item", tuple(self.items.values())),
        ):
            for entry in entries:
                for written in (entry.id, *entry.names.values(), *entry.aliases):
                    index.setdefault(fold(written), (kind, entry.id))
        for test in self.tests.values():
            for written in (test.id, *test.names.values()):
                index.setdefault(fold(written), ("test", test.id))

    @property
    def procedure(self) -> str:
        """The fight procedure kind: ``opposed``, ``d20`` or ``reliques``."""
        if isinstance(self.fight, OpposedFight):
            return "opposed"
        if isinstance(self.fight, D20Fight):
            return "d20"
        return "reliques"

    def stat(self, stat_id: str) -> StatDef:
        for stat in self.stats:
            if stat.id == stat_id:
                return stat
        raise KeyError(stat_id)

    def test_kind(self, stat_ids: tuple[str, ...]) -> str:
        """``mental`` when every characteristic of a test is mental, ``physical`` otherwise."""
        kinds = {stat.kind for stat in self.stats if stat.id in stat_ids}
        return "mental" if kinds == {"mental"} else "physical"

    def resolve(self, name: str) -> tuple[str, str] | None:
        """``(kind, canonical_id)`` for a name as written (kind: stat/counter/item/test)."""
        try:
            return self._resolved[name]
        except KeyError:
            found = self._resolved[name] = self._index.get(fold(name))
            return found

    def known_names(self) -> list[str]:
        """Every name ``resolve`` accepts (folded), for "did you mean" hints."""
        return sorted(self._index)

    def display_name(self, ident: str, lang: str = "fr") -> str:
        """The name to show for a stat/counter/item/test id in ``lang`` (falls back)."""
        for group in (self.stats, self.counters, tuple(self.items.values())):
            for entry in group:
                if entry.id == ident:
                    return entry.names.get(lang) or next(iter(entry.names.values()), ident)
        test = self.tests.get(ident)
        if test is not None:
            return test.names.get(lang) or ident
        return ident

    def counted_name(self, ident: str, amount: int, lang: str = "fr") -> str:
        """A counter's name after ``amount`` of it: the singular for one (French: also for
        zero) when the ruleset gives it, else :meth:`display_name` ("1 Gold piece")."""
        one = amount == 1 or (lang == "fr" and amount == 0)
        for counter in self.counters:
            if counter.id == ident and one and counter.singular:
                return counter.singular.get(lang) or next(iter(counter.singular.values()))
        return self.display_name(ident, lang)

    def outcome_name(self, test_id: str, outcome: str, lang: str = "fr") -> str | None:
        """The test's own word for an outcome (Luck: "Chanceux"), or None for the usual."""
        test = self.tests.get(test_id)
        names = test.outcomes.get(outcome) if test is not None else None
        if not names:
            return None
        return names.get(lang) or next(iter(names.values()))

    def item(self, name: str) -> ItemDef | None:
        """The ruleset's definition of an item, by any of its names."""
        found = self.resolve(name)
        if found and found[0] == "item":
            return self.items[found[1]]
        return None

    def difficulty(self, name: str | int) -> int | None:
        """A d20 difficulty by value or by name (fr/en/id); None for 'obvious'."""
        if isinstance(name, int):
            return name
        if self.d20 is None:
            raise KeyError(name)
        wanted = fold(name)
        for level in self.d20.difficulties:
            if wanted in {fold(level.id), *(fold(n) for n in level.names.values())}:
                return level.value
        if wanted.lstrip("-").isdigit():
            return int(wanted)
        raise KeyError(name)
