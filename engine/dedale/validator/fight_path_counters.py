"""Counters and codewords a fight with exits reads or changes, on the path of fights.

The chain does not carry counters or codewords from paragraph to paragraph (its state is
STAMINA, LUCK, meals and doses). A fight's exact odds with exits follow the counters its own
rules change or read (``when it wounds you: add 1 to WOUNDS``, ``end the fight when WOUNDS
>= 3 -> 12``, ``on a double (if not codeword DISARMED): its SKILL -2, set codeword
DISARMED``) from their values when the fight starts: the ruleset's initial values, codewords
unset. That start is exact on every path when nothing else in the book changes them — no
line outside this fight's own rules, no other fight's rules, no shop, bet or choice cost,
not the meals the chain follows, not a class's own start — and the fight is met once on the
path (a second time, the first fight's counters would carry over). Then the fight is
followed exactly; its counters matter nowhere else (nothing else changes them, and the
chain does not read them). Otherwise the step keeps its estimate, with its reason.
"""

from __future__ import annotations

from dedale import ast
from dedale.i18n import Message, tr
from dedale.validator.graph import walk


def codeword_key(codeword: str) -> str:
    """The key a fight's plan follows a codeword under (as ``fight_plan`` does)."""
    return "codeword:" + codeword.casefold()


class LocalCounters:
    """For each counter id and codeword of a book: which fights' rules change it, and
    whether anything else does (the book is read on the first question)."""

    def __init__(self, book: object) -> None:
        self.book = book
        self.ruleset = getattr(book, "ruleset", None)
        self._owners: dict[str, set[int]] | None = None
        self.outside: set[str] = set()

    @property
    def owners(self) -> dict[str, set[int]]:
        if self._owners is None:
            self._owners = {}
            self._read(self.book)
        return self._owners

    def _read(self, book: object) -> None:
        paragraphs = getattr(book, "paragraphs", {}) or {}
        inside: set[int] = set()
        for paragraph in paragraphs.values():
            for statement in walk(paragraph.body):
                if type(statement) is not ast.Fight:
                    continue
                rows = statement.assault_table.branches if statement.assault_table else ()
                for effects in [rule.effects for rule in statement.rules] + [
                    row.body for row in rows
                ]:
                    for effect in walk(effects):
                        key = self._key(effect)
                        if key is not None:
                            self._owners.setdefault(key, set()).add(id(statement))
                            inside.add(id(effect))
        for paragraph in paragraphs.values():
            for statement in walk(paragraph.body):
                if id(statement) in inside:
                    continue
                key = self._key(statement)
                if key is not None:
                    self.outside.add(key)
                for name in self._spent(statement):
                    found = self.ruleset.resolve(name) if self.ruleset is not None else None
                    self.outside.add(found[1] if found is not None else name)

    def _key(self, statement) -> str | None:
        kind = type(statement)
        if kind in (ast.SetCodeword, ast.ClearCodeword):
            return codeword_key(statement.codeword)
        if kind is ast.ChangeValue and self.ruleset is not None:
            found = self.ruleset.resolve(statement.name)
            if found is not None and found[0] == "counter":
                return found[1]
        return None

    @staticmethod
    def _spent(statement) -> list[str]:
        """The counters a shop, a bet or a choice's cost changes."""
        kind = type(statement)
        if kind is ast.Shop:
            return [offer.counter for offer in statement.offers]
        if kind in (ast.Wager, ast.WatchedWager):
            return [statement.counter]
        if kind is ast.Choice:
            return [cost.counter for cost in statement.costs if cost.counter]
        return []

    def local(self, key: str, fight: ast.Fight) -> bool:
        """Whether only ``fight``'s own rules change ``key`` (a counter id, or a codeword
        key), so that it starts at its initial value whenever the fight is met first."""
        owners = self.owners  # (reads the book the first time)
        return key not in self.outside and owners.get(key, set()) <= {id(fight)}


class CounterChecks:
    """The counter checks of HeroChain (``local``: the book's LocalCounters or None;
    ``repeated``: the ids of fights met more than once on the steps being chained)."""

    local: LocalCounters | None = None
    repeated: frozenset[int] = frozenset()

    def counter_ok(self, key: str, fight: ast.Fight) -> bool:
        """Whether the chain may take ``key``'s value at the fight's start as its initial."""
        if self.local is None or not self.local.local(key, fight):
            return False
        if id(fight) in self.repeated and key in self.local.owners:
            return False  # met again: the first fight's changes carry over
        meals = getattr(self.ruleset, "meals", None)
        if meals is not None and key == meals.counter:
            return False  # the chain follows the meals itself
        classes = getattr(self.ruleset, "classes", None) or {}
        klass = classes.get(self.hero.class_name) if self.hero.class_name else None
        return klass is None or key not in getattr(klass, "counters", {})

    def counters_reason(self, fight: ast.Fight, plan) -> Message | None:
        """Why the counters of a fight's plan cannot start at their initial values (None:
        they can, or it has none)."""
        for key, _ in plan.counters:
            if not self.counter_ok(key, fight):
                return unfollowed()
        return None

    def read_ok(self, atom, fight: ast.Fight) -> bool:
        """Whether a condition atom on a codeword or a counter reads what the chain knows."""
        if type(atom) is ast.HasCodeword:
            return self.counter_ok(codeword_key(atom.codeword), fight)
        if type(atom) is ast.ValueRef and not atom.initial and self.ruleset is not None:
            found = self.ruleset.resolve(atom.name)
            return found is not None and found[0] == "counter" and self.counter_ok(found[1], fight)
        return False

    def change_ok(self, effect, fight: ast.Fight) -> bool:
        """Whether an effect of the fight's rules that changes a counter or a codeword is
        followed (the counter local to the fight)."""
        if type(effect) in (ast.SetCodeword, ast.ClearCodeword):
            return self.counter_ok(codeword_key(effect.codeword), fight)
        found = self.ruleset.resolve(effect.name)
        return found is not None and found[0] == "counter" and self.counter_ok(found[1], fight)


def repeated_fights(steps) -> frozenset[int]:
    """The fights met more than once on ``steps`` (their ids)."""
    seen: set[int] = set()
    again: set[int] = set()
    for step in steps:
        fight = getattr(step, "fight", None)
        if fight is not None:
            (again if id(fight) in seen else seen).add(id(fight))
    return frozenset(again)


def unfollowed() -> Message:
    return tr("a fight with exits that reads or changes what the path of fights does not follow")
