"""What the items a hero carries change in a fight's odds (issue 14.3).

The interpreter's FF-family fight adds to the hero's attack strength the book's item
bonuses to the attack stat (``take Sword (weapon, SKILL +1)``; of several weapons only the
best counts: :func:`dedale.rules.modifiers.item_modifiers`, after the class's abilities)
and takes the unarmed penalty when no item held is a weapon
(:class:`dedale.rules.fight_opposed.FightSetup`). :func:`attack_shift` builds the same
:class:`~dedale.rules.character.Character` the interpreter would hold (the items, their
book effects, the class and its kit) and asks those same functions, so the odds cannot
disagree with the game.

For each fight, :func:`carried_at` turns the :class:`~dedale.validator.loadout.Loadout`
into the worst loadout (the items surely held) and the best one (plus the items maybe held
that raise the attack), and names the items that change it.
"""

from __future__ import annotations

from dataclasses import dataclass

from dedale import ast
from dedale.rules.ruleset import fold
from dedale.validator.graph import Graph, walk
from dedale.validator.loadout import Loadout


@dataclass(frozen=True, slots=True)
class Carried:
    """The worst and best loadout of one fight (folded names) and, by display name, the
    items maybe held that change the hero's attack there."""

    surely: frozenset[str]
    best: frozenset[str]
    changing: tuple[str, ...] = ()


class ItemBook:
    """The items a book gives: their effects (the first ``take`` with effects) and the
    name as first written, by folded name."""

    def __init__(self, graph: Graph, book: object, given: list[ast.GainItem] | None = None) -> None:
        """``given``: the book's ``take`` lines when the caller has walked them already."""
        meta = getattr(book, "meta", None)
        gains = [s for s in getattr(meta, "items", None) or () if isinstance(s, ast.GainItem)]
        if given is None:
            given = [
                s
                for node in graph.nodes.values()
                for s in walk(node.paragraph.body)
                if isinstance(s, ast.GainItem)
            ]
        gains.extend(given)
        self.effects: dict[str, ast.GainItem] = {}
        self.names: dict[str, str] = {}
        for statement in gains:
            key = fold(statement.item)
            self.names.setdefault(key, statement.item)
            if statement.weapon or statement.effects:
                self.effects.setdefault(key, statement)


def _book_item(ruleset: object, statement: ast.GainItem):
    """The BookItem the interpreter records for ``statement`` (its weapon flag and stat
    bonuses; a bonus to a name that is no stat is left out, as the loader rejects it)."""
    from dedale.rules.character import BookItem

    bonuses = []
    for effect in statement.effects:
        if effect.stat is None:
            continue
        found = ruleset.resolve(effect.stat)  # type: ignore[attr-defined]
        if found is not None and found[0] == "stat":
            bonuses.append((found[1], effect.amount, effect.tag))
    return BookItem(weapon=statement.weapon, bonuses=tuple(bonuses))


class AttackShifts:
    """Memoised :func:`attack_shift` for one book and ruleset."""

    def __init__(self, ruleset: object, items: ItemBook) -> None:
        self.ruleset = ruleset
        self.items = items
        self.cache: dict[tuple, int] = {}

    def __call__(self, held: frozenset[str], class_name: str | None, stat: str) -> int:
        key = (held, class_name, stat)
        if key not in self.cache:
            self.cache[key] = attack_shift(self.ruleset, self.items, held, class_name, stat)
        return self.cache[key]


def attack_shift(
    ruleset: object, items: ItemBook, held: frozenset[str], class_name: str | None, stat: str
) -> int:
    """What the items ``held`` (folded names; the class kit is added) change in the hero's
    attack strength with ``stat``, as the interpreter's fight computes it: the items' book
    bonuses to the stat, and the unarmed penalty when none of them is a weapon."""
    from dedale.rules import modifiers as mods
    from dedale.rules.character import Character

    classes = getattr(ruleset, "classes", None) or {}
    kit = classes[class_name].kit if class_name in classes else ()
    names = set(held) | {fold(item) for item in kit}
    effects = {n: _book_item(ruleset, items.effects[n]) for n in names if n in items.effects}
    character = Character(
        stats={}, initial={}, items=dict.fromkeys(names, 1), class_name=class_name,
        item_effects=effects,
    )  # fmt: skip
    abilities = mods.hero_abilities(ruleset, character)  # type: ignore[arg-type]
    shift = mods.total(mods.item_modifiers(character, stat), abilities) if effects else 0
    if not (character.items and character.is_armed(ruleset)):  # type: ignore[arg-type]
        shift += unarmed_shift(ruleset, abilities, character)
    return shift


def unarmed_shift(ruleset: object, abilities, character) -> int:
    """What fighting unarmed changes in the attack, as FightSetup computes it (the class's
    unarmed ability, else the ruleset's penalty; tests/validator compares the two), without
    importing the fight code (and the interpreter's events) for ``validate --runs 0``."""
    from dedale.rules import modifiers as mods
    from dedale.rules.ruleset import OpposedFight

    params = getattr(ruleset, "fight", None)
    if not isinstance(params, OpposedFight):
        return unarmed_by_setup(ruleset, character)
    if mods.has_ability(abilities, "unarmed", "attack_penalty"):
        return mods.ability_value(abilities, "unarmed", "attack_penalty")
    return params.unarmed_penalty


def unarmed_by_setup(ruleset: object, character) -> int:
    """The unarmed shift as the difference of two FightSetups (the reference)."""
    from dedale.rules.fight_opposed import FightSetup
    from dedale.rules.fights import EnemySpec, FightSpec

    spec = FightSpec((EnemySpec("-", {}),))
    unarmed = FightSetup(ruleset, character, spec, armed=False)  # type: ignore[arg-type]
    armed = FightSetup(ruleset, character, spec, armed=True)  # type: ignore[arg-type]
    return unarmed.attack_bonus - armed.attack_bonus


def carried_at(
    loadout: Loadout | None,
    shifts: AttackShifts,
    class_names: tuple[str | None, ...],
    stat: str,
) -> Carried:
    """The worst loadout (the items surely held) and the best one (plus each item maybe
    held that raises the attack of some class's hero) of a fight, and the items that
    change it. No loadout (a fight no path from the start reaches): nothing carried."""
    if loadout is None:
        return Carried(frozenset(), frozenset())
    sure = frozenset(loadout.surely)
    best = set(sure)
    changing = []
    for item in sorted(loadout.maybe):
        with_it = sure | {item}
        gains = [shifts(with_it, c, stat) - shifts(sure, c, stat) for c in class_names]
        if any(gain > 0 for gain in gains):
            best.add(item)
            changing.append(shifts.items.names.get(item, item))
    best_set = frozenset(best)
    # several items together (two weapons: the best one counts) never do worse than one
    for _ in range(len(best_set)):  # drop an item that lowers the whole (bounded)
        worse = [
            item
            for item in sorted(best_set - sure)
            if all(shifts(best_set - {item}, c, stat) >= shifts(best_set, c, stat)
                   for c in class_names)
            and any(shifts(best_set - {item}, c, stat) > shifts(best_set, c, stat)
                    for c in class_names)
        ]  # fmt: skip
        if not worse:
            break
        best_set = best_set - {worse[0]}
    return Carried(sure, best_set, tuple(changing))
