"""A paragraph's tree replayed once for every state that differs only in what it never reads.

Replaying a paragraph through the interpreter is most of a solve's cost, and most states
of a big book differ from one another only in atoms the paragraph at hand never names:
the gold and the meals at a fight, the codewords of another chapter, the visits asked
about elsewhere. A paragraph's replay reads and writes only the atoms of the state its
statements name (its **active** part) and the rules' own (every stat, the class, items
with effects, weapons, the ruleset's data, the names of ongoing rules); everything else
(its **passive** part: codewords, counters, items and visits it does not name) goes
through it unchanged into every next state. So the tree of a paragraph is built once per
active part (the key), with each next state recorded as its active part (a *slot*); a
state with the same key gets the same tree, each slot completed with that state's own
passive part and made canonical for its paragraph as usual.

Only paragraphs of known statements take part (choices, gains and losses, codewords,
flags, Worlds, tests, dice tables, meals allowed, fights without an escape, an assault
limit or rules of their own); a paragraph with anything else (a computed or hidden
destination, a shop, a status, a wager, a noted paragraph...) is replayed for every
state, as is a state with a status or a penalty running. ``shortcuts=False`` turns the
templates off: ``tests/solve`` checks the same values and state counts both ways.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dedale import ast
from dedale.rules.ruleset import fold
from dedale.solve.duel import Duel
from dedale.solve.liveness import _ONGOING, _nodes, _ruleset_data, _strings, _TooBig
from dedale.solve.model import Chance, Decision, Leaf, Next
from dedale.solve.snapshot import expand
from dedale.solve.snapshot import key as snapshot_key

MAX_NODES = 1_000_000
"""AST nodes walked at most for the whole book (past it no paragraph takes part)."""

MAX_TEMPLATES = 400_000
"""Templates kept at most (past it the others are replayed as before)."""

_ALLOWED = frozenset(
    {
        ast.Prose, ast.Choice, ast.Cost, ast.Goto, ast.ChangeValue, ast.GainItem,
        ast.LoseItem, ast.SetCodeword, ast.ClearCodeword, ast.SetFlag, ast.ClearFlag,
        ast.OpenWorld, ast.AllowRevisit, ast.MealRule, ast.Ending, ast.Test, ast.Branch,
        ast.RangeBranch, ast.Modifier, ast.RandomRoll, ast.Fight, ast.Enemy, ast.EnemyGroup,
        ast.If, ast.ParagraphRef, ast.Num, ast.DiceRoll, ast.ValueRef, ast.BinOp,
        ast.HasItem, ast.HasCodeword, ast.Compare, ast.Visited, ast.WorldVisited,
        ast.HasClass, ast.Not, ast.And, ast.Or, ast.HasFlag,
    }
)  # fmt: skip
"""The AST nodes whose reads and writes are the names they hold (see the docstring)."""


@dataclass(frozen=True, slots=True)
class Reads:
    """What one paragraph's replay may read or write, beyond the rules' own atoms."""

    names: frozenset[str]  # folded codewords and items it names (and those read everywhere)
    counters: frozenset[str]  # counter ids it reads (and those read everywhere)
    visits: frozenset[str]  # visited paragraphs (as the snapshot's keys) it asks about
    worlds: bool  # whether it reads or writes the Worlds entered


@dataclass(frozen=True, slots=True)
class Slot:
    """A next state of a template: ``target`` and the active part of the snapshot, kept
    as its compact JSON key (:mod:`dedale.solve.snapshot`) and parsed when the template is
    filled: a parsed snapshot is about 2 KB of nested dicts, its key 300-500 bytes, and a
    large solve keeps a few slots per state (etoiles-mortes: 4 per state, half its memory
    in parsed slots before)."""

    target: int
    active: str


class Templates:
    """The templates of one solve (see the module docstring)."""

    def __init__(self, book) -> None:
        self.book = book
        self.cache: dict[tuple[int, str], Any] = {}
        self._reads: dict[int, Reads | None] = {}
        self._folded: dict[str, str] = {}
        self.hits = 0
        ruleset = book.ruleset
        self.counters = frozenset(c.id for c in ruleset.counters)
        meals = ruleset.meals
        self.meal_counter = meals.counter if meals else None
        self.meals_anywhere = bool(meals and meals.anywhere)
        self.items_passive = ruleset.inventory_limit is None
        self._budget = [MAX_NODES]
        try:
            self._always, self._always_counters = self._read_everywhere()
        except _TooBig:
            self._always, self._always_counters = frozenset(), frozenset()
            self._budget[0] = -1

    # ------------------------------------------------------------------ analysis

    def reads(self, number: int) -> Reads | None:
        """What paragraph ``number``'s replay reads, or None if it does not take part."""
        if number in self._reads:
            return self._reads[number]
        try:
            found = self._reads_of(number)
        except _TooBig:
            found = None
        self._reads[number] = found
        return found

    def _read_everywhere(self) -> tuple[frozenset[str], frozenset[str]]:
        """The folded names (and counters) read everywhere: the ruleset's data, ongoing
        rules, items gained with an effect or as a weapon."""
        names: set[str] = set()
        for value in _strings(_ruleset_data(self.book.ruleset), self._budget):
            names.add(fold(value))
        for paragraph in self.book.paragraphs.values():
            for node in _nodes(paragraph.body, self._budget):
                kind = type(node)
                if kind in _ONGOING:
                    names.update(fold(value) for value in _strings(node, self._budget))
                elif kind is ast.GainItem and (node.weapon or node.effects):
                    names.add(fold(node.item))
        counters = {c for c in self.counters if fold(c) in names}
        for name in list(names):
            found = self.book.ruleset.resolve(name)
            if found is not None and found[0] == "counter":
                counters.add(found[1])
        return frozenset(names), frozenset(counters)

    def _reads_of(self, number: int) -> Reads | None:
        if self._budget[0] < 0:
            return None
        book = self.book
        paragraph = book.paragraphs.get(number)
        if paragraph is None:
            return None
        names: set[str] = set()
        counters: set[str] = set(self._always_counters)
        visits = {str(number)}
        worlds = False
        meals = self.meals_anywhere
        for node in _nodes(paragraph.body, self._budget):
            kind = type(node)
            if kind not in _ALLOWED:
                return None
            if kind is ast.Prose:
                continue
            if kind is ast.Fight and (
                node.escape or node.assault_limit or node.threshold or node.win_assaults
                or node.allies or node.rules or node.assault_table
            ):  # fmt: skip
                return None
            if kind is ast.MealRule:
                meals = True
            elif kind is ast.Visited:
                target = book.resolve(node.paragraph)
                if target is None:
                    return None
                visits.add(str(target))
            elif kind in (ast.OpenWorld, ast.WorldVisited, ast.AllowRevisit):
                worlds = True
            elif kind is ast.ParagraphRef and book.ruleset.worlds:
                target = book.resolve(node)
                if target is None or _opens_world(book, target):
                    worlds = True
            for name in _fields(node):
                value = getattr(node, name)
                if type(value) is str:
                    names.add(fold(value))
                    found = book.ruleset.resolve(value)
                    if found is not None and found[0] == "counter":
                        counters.add(found[1])
                    elif value in self.counters:
                        counters.add(value)
        if meals and self.meal_counter:
            counters.add(self.meal_counter)
        worlds = worlds or bool(book.ruleset.worlds and _opens_world(book, number))
        names |= self._always
        return Reads(frozenset(names), frozenset(counters), frozenset(visits), worlds)

    # ------------------------------------------------------------------ keys

    def _fold(self, text: str) -> str:
        found = self._folded.get(text)
        if found is None:
            found = self._folded[text] = fold(text)
        return found

    def split(self, data: dict, reads: Reads) -> tuple[dict, tuple]:
        """``data`` (a canonical snapshot's, left unchanged) as (its active part, a new
        dict; its passive part)."""
        names = reads.names
        fold_ = self._fold
        active = dict(data)
        hero = active["hero"] = dict(data["hero"])
        words = data["codewords"]
        passive_words = ()
        if words:
            active["codewords"] = [w for w in words if fold_(w) in names]
            passive_words = tuple(w for w in words if fold_(w) not in names)
        counters = hero["counters"]
        keep = reads.counters
        hero["counters"] = {k: v for k, v in counters.items() if k in keep}
        passive_counters = tuple((k, v) for k, v in counters.items() if k not in keep)
        passive_items: tuple = ()
        items = hero["items"]
        if self.items_passive and items:
            hero["items"] = {k: v for k, v in items.items() if fold_(k) in names}
            passive_items = tuple((k, v) for k, v in items.items() if fold_(k) not in names)
        else:
            hero["items"] = dict(items)
        visited = data["visited"]
        seen = reads.visits
        active["visited"] = {k: v for k, v in visited.items() if k in seen}
        passive_visits = tuple((k, v) for k, v in visited.items() if k not in seen)
        passive_worlds: tuple = ()
        if not reads.worlds and data.get("worlds"):
            passive_worlds = tuple(data["worlds"])
            active["worlds"] = []
        return active, (passive_words, passive_counters, passive_items, passive_visits,
                        passive_worlds)  # fmt: skip

    @staticmethod
    def merge(active: dict, passive: tuple) -> dict:
        """A full snapshot's data: an active part (left unchanged) and a passive one."""
        words, counters, items, visits, worlds = passive
        data = dict(active)
        hero = data["hero"] = dict(active["hero"])
        if words:
            data["codewords"] = sorted([*active["codewords"], *words])
        else:
            data["codewords"] = list(active["codewords"])
        hero["counters"] = {**active["hero"]["counters"], **dict(counters)}
        hero["items"] = {**active["hero"]["items"], **dict(items)}
        data["visited"] = {**active["visited"], **dict(visits)}
        if worlds:
            data["worlds"] = sorted([*active["worlds"], *worlds])
        return data

    # ------------------------------------------------------------------ templates

    def store(self, key: tuple[int, str], tree, recorded: dict, origins: list) -> None:
        """Keep ``tree`` (built for one state of key ``key``) as the key's template, its
        next states as slots (``recorded``: (snapshot key, target) -> active part)."""
        if len(self.cache) >= MAX_TEMPLATES:
            return
        try:
            self.cache[key] = _to_template(tree, recorded, origins)
        except KeyError:  # a next state not made through the explorer's canonical()
            return

    def instantiate(self, template, passive: tuple, make_next) -> Any:
        """The template's tree for a state of passive part ``passive``: ``make_next(data,
        target)`` turns each slot's completed snapshot into a Next."""
        self.hits += 1
        return _fill(template, passive, make_next)


def _to_template(tree, recorded: dict, origins: list):
    kind = type(tree)
    if kind is Next:
        entry = origins[tree.node]
        return Slot(entry.target, snapshot_key(recorded[entry.state, entry.target]))
    if kind is Leaf:
        return tree
    if kind is Chance:
        branches = tree.branches
        return Chance(tuple((p, t, _to_template(s, recorded, origins)) for p, t, s in branches))
    if kind is Decision:
        return Decision(
            tuple((t, label, _to_template(s, recorded, origins)) for t, label, s in tree.options)
        )
    if kind is Duel:
        ends = {k: _to_template(s, recorded, origins) for k, s in tree.ends.items()}
        return Duel(tree.table, tree.begin, ends)
    raise KeyError(kind)


def _fill(template, passive: tuple, make_next):
    kind = type(template)
    if kind is Slot:
        return make_next(Templates.merge(expand(template.active), passive), template.target)
    if kind is Leaf:
        return template
    if kind is Chance:
        return Chance(tuple((p, t, _fill(s, passive, make_next)) for p, t, s in template.branches))
    if kind is Decision:
        return Decision(
            tuple((t, label, _fill(s, passive, make_next)) for t, label, s in template.options)
        )
    ends = {k: _fill(s, passive, make_next) for k, s in template.ends.items()}
    return Duel(template.table, template.begin, ends)


def _opens_world(book, number: int) -> bool:
    paragraph = book.paragraphs.get(number)
    return paragraph is not None and any(type(s) is ast.OpenWorld for s in paragraph.body)


def _fields(node) -> tuple[str, ...]:
    names = getattr(node, "__dataclass_fields__", None)
    return tuple(n for n in names if n != "span") if names else ()
