"""Potions on the path of fights: an item that acts when STAMINA falls.

Dédale's potion is an item with a trigger (docs/language.md, "An item that acts when a
value falls"): ``take 2 Healing Draughts (when STAMINA falls to 4: gain 6 STAMINA)``. The
reader does not choose when to drink: while the hero holds one, the interpreter makes it
act as soon as STAMINA is at or below the threshold — after any rule line, after every
assault of a fight, and on a wound that would kill (:mod:`dedale.game.triggers`,
:mod:`dedale.game.fight_hooks`) — and one piece is used up; it acts again while the value
is still at or below it and pieces are left. No ruleset of Dédale offers a potion at the
hero's creation: a book gives one through book.yaml's ``items`` or a ``take`` line.

The chain follows one such potion exactly: its doses are the fourth part of the hero's
state, :func:`settle` drinks between the steps, and :class:`PotionFight` is the exact
fight of an :class:`~dedale.rules.odds.OddsTable` (one enemy after another) for a hero
holding doses, the potion acting inside the fight (with the best Luck policy, each Luck
choice is the best one knowing the doses). What is not followed (a trigger on LUCK, a
change of another stat, a second potion with another effect, a fight against several
enemies at once while the hero holds a dose) leaves the figure ``≈`` with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dedale import ast
from dedale.i18n import Message, tr
from dedale.rules.ruleset import fold

MAX_DOSES = 9  # doses followed in the state (more are counted as this many: ``≈``)
MAX_KINDS = 3  # potions of different effects followed at once (fight_path_potions.py)
Law = tuple[tuple[int, float], ...]


@dataclass(frozen=True, slots=True)
class Potion:
    """What a dose does: once STAMINA is at or below ``at``, ``op`` (``restore``, ``add``
    or ``set``, by ``law``) is made, never above the initial STAMINA unless the ruleset
    lets STAMINA exceed it (``capped``)."""

    at: int
    op: str
    law: Law | None
    capped: bool = True

    def drink(self, h: int, top: int) -> list[tuple[int, float]]:
        """STAMINA after one dose from ``h`` (``top``: the initial STAMINA)."""
        if self.op == "restore":
            return [(max(h, top) if not self.capped else top, 1.0)]
        out: dict[int, float] = {}
        for amount, p in self.law or ((0, 1.0),):
            new = h + amount if self.op == "add" else amount
            new = max(0, new)
            if self.capped and new > top:
                new = top
            out[new] = out.get(new, 0.0) + p
        return list(out.items())

    def add(self, d: int, item: str, count: int) -> int:
        """The doses after ``count`` are taken (< 0: lost), between 0 and ``MAX_DOSES``."""
        return max(0, min(d + count, MAX_DOSES))

    def over(self, d: int, item: str, count: int) -> bool:
        """Whether taking ``count`` passes the doses followed."""
        return d + count > MAX_DOSES

    def highest(self, h: int, top: int, d: int) -> int:
        """The highest STAMINA ``d`` doses can bring a hero at ``h`` to."""
        if self.capped or self.op == "restore":
            return max(h, top)
        most = max(amount for amount, _ in self.law or ((0, 1.0),))
        return max(h, top, most if self.op == "set" else self.at + most)


def settle(potion: Potion | None, top: int, h: int, d: int) -> list[tuple[tuple[int, int], float]]:
    """(STAMINA, doses) after the potion acts from ``h`` with ``d`` doses: as long as
    STAMINA is at or below the threshold and a dose is left (the interpreter's
    ``fire_triggers``). 0 STAMINA afterwards is death (the caller drops it)."""
    if potion is None or d <= 0 or h > potion.at:
        return [((h, d), 1.0)]
    if not isinstance(potion, Potion):  # several kinds: fight_path_potions.Potions
        return potion.settle(top, h, d)
    out: dict[tuple[int, int], float] = {}
    stack = [(h, d, 1.0)]
    while stack:  # each round uses a dose: at most d rounds deep
        h, d, p = stack.pop()
        if d <= 0 or h > potion.at:
            out[(h, d)] = out.get((h, d), 0.0) + p
            continue
        for new, q in potion.drink(h, top):
            stack.append((new, d - 1, p * q))
    return list(out.items())


def potion_of(gain: ast.GainItem, tracked, law_of) -> Potion | Message | None:
    """The potion an item is (None: no trigger on the health or Luck; a Message: why the
    chain cannot follow its trigger)."""
    found: Potion | Message | None = None
    for effect in gain.effects:
        trigger = effect.trigger
        if trigger is None:
            continue
        watched = tracked.what(trigger.stat)
        if watched not in ("health", "luck"):
            continue
        change = trigger.change
        law = law_of(change.amount) if change.op in ("add", "set") else None
        if (
            watched != "health"
            or tracked.what(change.name) != "health"
            or change.op not in ("restore", "add", "set")
            or law == "?"
            or found is not None
        ):
            return tr(
                "{item} acts when {name} falls: its use is not counted",
                item=gain.item,
                name=trigger.stat,
            )
        found = Potion(trigger.at, change.op, law, tracked.health_capped)
    return found


class BookPotions:
    """The potions the chain follows in one book: the items with a trigger it can follow
    (in paragraph order, book.yaml's items first); items with the same effect count as
    doses of one potion, up to ``MAX_KINDS`` potions of different effects
    (:mod:`.fight_path_potions`); any other item that acts when STAMINA or LUCK falls keeps
    its reason (the figure is ``≈``)."""

    def __init__(self, book: object, tracked) -> None:
        from dedale.validator.fight_path_steps import _law

        self.potion: Potion | Any | None = None  # one Potion, or Potions (several kinds)
        self.items: set[str] = set()  # folded names of the items that are doses of them
        self.names: dict[str, str] = {}  # folded name -> the name as the book writes it
        self.reasons: dict[str, Message] = {}
        meta = getattr(book, "meta", None)
        starting = meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)
        gains = [item for item in starting or () if isinstance(item, ast.GainItem)]
        paragraphs = getattr(book, "paragraphs", {}) or {}
        from dedale.validator.graph import walk

        for number in sorted(paragraphs):
            for statement in walk(paragraphs[number].body):
                if isinstance(statement, ast.GainItem):
                    gains.append(statement)
        kinds: list[Potion] = []
        names: list[set[str]] = []
        for gain in gains:
            kind = potion_of(gain, tracked, _law)
            name = fold(gain.item)
            if kind is None:
                continue
            if isinstance(kind, Potion):
                stat = next(e.trigger.stat for e in gain.effects if e.trigger is not None)
                other = any(name in names[i] for i, k in enumerate(kinds) if k != kind)
                if other:  # one item, two effects: the last taken replaces the first
                    kind = tr("{item} acts when {name} falls in two ways: its use is not "
                              "counted", item=gain.item, name=stat)  # fmt: skip
                elif kind not in kinds and len(kinds) >= MAX_KINDS:
                    kind = tr("{item} acts when {name} falls unlike the book's first "
                              "{most} potions: its use is not counted",
                              item=gain.item, name=stat, most=MAX_KINDS)  # fmt: skip
            if isinstance(kind, Potion) and name not in self.reasons:
                if kind not in kinds:
                    kinds.append(kind)
                    names.append(set())
                names[kinds.index(kind)].add(name)
                self.items.add(name)
                self.names.setdefault(name, gain.item)
            elif not isinstance(kind, Potion):
                self.reasons.setdefault(name, kind)
                self.items.discard(name)
                for found in names:
                    found.discard(name)
        kept = [(kind, frozenset(found)) for kind, found in zip(kinds, names, strict=True) if found]
        if len(kept) == 1:
            self.potion = kept[0][0]
        elif kept:
            from dedale.validator.fight_path_potions import Potions

            self.potion = Potions(tuple(k for k, _ in kept), tuple(n for _, n in kept))

    def shown(self) -> str:
        """The potion's items as the book names them (``Healing Draught, Salve``)."""
        return ", ".join(self.names[name] for name in sorted(self.items))

    def start_doses(self, book: object, potion=None) -> int:
        """The doses book.yaml's items give (with several kinds, the code of ``potion``,
        else of the book's order)."""
        meta = getattr(book, "meta", None)
        starting = meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)
        gains = [item for item in starting or ()
                 if isinstance(item, ast.GainItem) and fold(item.item) in self.items]  # fmt: skip
        potion = potion if potion is not None else self.potion
        if isinstance(potion, Potion) or potion is None:
            return sum(item.count for item in gains)
        code = 0
        for item in gains:
            code = potion.add(code, fold(item.item), item.count)
        return code

    def start_over(self, book: object, most: int) -> bool:
        """Whether book.yaml's items give more than ``most`` doses of one potion."""
        meta = getattr(book, "meta", None)
        starting = meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)
        counts: dict[object, int] = {}
        for item in starting or ():
            if isinstance(item, ast.GainItem) and fold(item.item) in self.items:
                kind_of = getattr(self.potion, "kind_of", None)
                kind = kind_of(fold(item.item)) if kind_of is not None else 0
                counts[kind] = counts.get(kind, 0) + item.count
        return any(count > most for count in counts.values())

    def for_path(self, book: object, steps) -> tuple[object, int, Message | None]:
        """The potion the chain follows on a path of ``steps``, the doses it starts with and
        why it is ``≈`` (None: it is not): several kinds act in the order the path first
        gives their items (book.yaml's first; :meth:`.fight_path_potions.Potions.in_order`)."""
        from dedale.validator.fight_path_steps import Dose

        if isinstance(self.potion, Potion) or self.potion is None:
            return self.potion, self.start_doses(book), None
        meta = getattr(book, "meta", None)
        starting = meta.get("items") if isinstance(meta, dict) else getattr(meta, "items", None)
        taken = [fold(item.item) for item in starting or () if isinstance(item, ast.GainItem)]
        taken += [step.item for step in steps if isinstance(step, Dose) and step.count > 0]
        potion, grouped = self.potion.in_order(list(dict.fromkeys(taken)))
        why = None
        if not grouped:
            why = tr("potions of different effects whose items are taken in turn: the order "
                     "they act in is not followed")  # fmt: skip
        return potion, self.start_doses(book, potion), why
