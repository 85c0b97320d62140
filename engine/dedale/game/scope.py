"""What expressions, conditions and interpolations read from a running game, and the
resolution of the book's names against the ruleset (a mixin of the Runner)."""

from __future__ import annotations

from typing import Any

from dedale import ast, events
from dedale.errors import GameError
from dedale.game.book_state import count_value
from dedale.game.cache import folded
from dedale.game.expressions import evaluate
from dedale.i18n import message, tr
from dedale.rules import parse_dice

_KINDS = {
    ("stat",): tr("stat"),
    ("counter",): tr("counter"),
    ("stat", "counter"): tr("stat or counter"),
}
"""The kinds of names :meth:`GameScope.resolve` looks for, as its error names them."""


class GameScope:
    """The Scope/World API over the game's state, and name resolution."""

    @property
    def paragraph(self) -> int:
        return self.state.paragraph or 0

    def value(self, name: str, initial: bool = False) -> int:
        declared = self.book.meta.state
        if declared:  # the book's own counters (book.yaml `state:`)
            count = count_value(declared, self.state, name)
            if count is not None:
                return count
        kind, ident = self.resolve(name, None, ("stat", "counter"))
        hero = self.state.hero
        if kind == "stat":
            return hero.initial[ident] if initial else hero.stats[ident]
        return hero.counters.get(ident, 0)

    def roll(self, text: str, span) -> int:
        expr = self._parsed(text, span)
        total, faces = expr.roll(self.rng, self.value)
        if self.emit:
            self._rolls.append(
                events.DiceRolled(
                    purpose="amount", faces=tuple(faces), total=total, expression=text
                )
            )
        return total

    def word(self, name: str) -> str | None:
        key = folded(name)
        if key in ("name", "nom", "hero", "heros"):
            return self.state.name
        if key in ("class", "classe"):
            hero = self.state.hero
            if hero is None or hero.class_name is None:
                return ""
            klass = self.ruleset.classes.get(hero.class_name)
            return klass.names.get(self.lang, hero.class_name) if klass else hero.class_name
        return None

    def item_count(self, item: str) -> int:
        return self.state.hero.items.get(self.item_key(item), 0)

    def has_codeword(self, codeword: str) -> bool:
        return self.state.has_codeword(codeword)

    def visited(self, ref: ast.ParagraphRef) -> bool:
        number = self.destination(ref)
        return number is not None and number in self.state.visited

    def world_visited(self, world: str) -> bool:
        return self.state.world_visited(world)

    def has_flag(self, name: str) -> bool:
        return name in self.state.flags

    def has_class(self, name: str) -> bool:
        hero = self.state.hero
        return hero.class_name is not None and self.class_id(name, strict=False) == hero.class_name

    # ================================================================== names and helpers

    def text(self, key: str, **params: Any) -> str:
        return message(self.lang, key, **params)

    def describe_condition(self, condition: ast.Condition) -> str:
        """The reason shown on a disabled choice whose condition is false."""
        kind = type(condition)
        if kind is ast.HasItem:
            count = condition.count  # "you need: 2 Tooth-piece"
            return self.text(
                "reason.item", item=f"{count} {condition.item}" if count > 1 else condition.item
            )
        if kind is ast.HasCodeword:
            return self.text("reason.codeword", codeword=condition.codeword)
        if kind is ast.Visited:
            return self.text("reason.visited", paragraph=self.destination(condition.paragraph))
        if kind is ast.WorldVisited:
            return self.text("reason.world", world=condition.world)
        if kind is ast.HasClass:
            return self.text("reason.class", name=condition.name)
        if kind is ast.HasStatus:
            return self.text("reason.status", status=condition.name)
        if kind is ast.HasFlag:
            entry = self.book.meta.state.flag(condition.name)
            return self.text("reason.flag", flag=entry.display if entry else condition.name)
        if kind is ast.Not:
            return self.text("reason.not")
        if kind is ast.Compare and isinstance(condition.left, ast.ValueRef):
            found = self._lookup(condition.left.name)
            name = self.ruleset.display_name(found[1], self.lang) if found else condition.left.name
            counter = self.book.meta.state.counter(condition.left.name)
            name = counter.display if counter is not None else name
            right = evaluate(condition.right, self)
            return self.text("reason.compare", name=name, op=condition.op, value=right)
        return self.text("reason.condition")

    def destination(self, target: ast.Destination, required: bool = False) -> int | None:
        """The paragraph number a destination names (None if unknown)."""
        if type(target) is ast.ParagraphRef:
            if target.number is not None and target.label is None:
                number = target.number
            else:
                number = self.book.resolve(target)
        else:
            number = evaluate(target.expr, self)
        if required and (number is None or number not in self.book.paragraphs):
            raise GameError(
                tr(
                    "the book sends the reader to paragraph {number}, which does not exist",
                    number=number,
                ),
                target.span,
            )
        return number

    def _lookup(self, name: str) -> tuple[str, str] | None:
        try:
            return self._names[name]
        except KeyError:
            found = self._names[name] = self.ruleset.resolve(name)
            return found

    def resolve(self, name: str, span, kinds: tuple[str, ...]) -> tuple[str, str]:
        """``(kind, id)`` of a stat/counter/test name, or a GameError at ``span``."""
        found = self._lookup(name)
        if found is None or found[0] not in kinds:
            raise GameError(
                tr(
                    "'{name}' is not a {kinds} of the ruleset '{ruleset}'",
                    name=name,
                    kinds=_KINDS.get(kinds) or " / ".join(kinds),
                    ruleset=self.ruleset.name,
                ),
                span,
            )
        return found

    def test_id(self, name: str, span) -> str:
        """A roll-under test by its name, or by the stat it tests (``luck`` / LUCK)."""
        wanted = folded(name)
        tests = self.ruleset.tests
        for ident, test in tests.items():
            if wanted == folded(ident) or wanted in {folded(n) for n in test.names.values()}:
                return ident
        found = self._lookup(name)
        if found is not None:
            for ident, test in tests.items():
                if found == ("test", ident) or (found[0] == "stat" and test.stat == found[1]):
                    return ident
        raise GameError(
            tr("'{name}' is not a test of the ruleset '{ruleset}'", name=name,
               ruleset=self.ruleset.name),
            span,
            hint=tr("tests: {names}", names=", ".join(tests) or "-"),
        )  # fmt: skip

    def counter_id(self, name: str, span) -> str:
        return self.resolve(name, span, ("counter",))[1]

    def class_id(self, name: str, strict: bool = True) -> str | None:
        wanted = folded(name)
        for ident, klass in self.ruleset.classes.items():
            if wanted == folded(ident) or wanted in {folded(n) for n in klass.names.values()}:
                return ident
        if strict:
            names = ", ".join(self.ruleset.classes) or "-"
            raise GameError(
                tr("unknown class '{name}'", name=name), hint=tr("classes: {names}", names=names)
            )
        return None

    def item_key(self, name: str) -> str:
        """The inventory key for an item name as written (matched without case/accents)."""
        items = self.state.hero.items
        if name in items:
            return name
        wanted = folded(name)
        for key in items:
            if folded(key) == wanted:
                return key
        return name

    def _parsed(self, text: str, span):
        try:
            return self._dice[text]
        except KeyError:
            expr = self._dice[text] = parse_dice(text, span)
            return expr


_SIMPLE = frozenset({ast.LoseItem, ast.SetCodeword, ast.ClearCodeword, ast.OpenWorld})
