"""Name checks made while loading: labels resolve, stat/counter/test names exist in the
ruleset, interpolations name something. Deeper checks belong to the validator."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping
from dataclasses import fields
from typing import Any

from dedale import ast
from dedale.errors import BookStructureError, DedaleError
from dedale.i18n import tr
from dedale.language.enemies import EnemyChecker
from dedale.language.keywords import fold, name_key
from dedale.language.metadata import did_you_mean
from dedale.language.prose_refs import is_prose_ref, parse_prose_ref
from dedale.rules.ruleset import fold as rules_fold
from dedale.span import Span

_INTERPOLATION = re.compile(r"\{([^{}\n]{1,60})\}")
_HERO_WORDS = {"name", "nom", "class", "classe", "hero", "heros"}
_LEAVES = (str, int, bool, type(None), Span)


_FIELDS: dict[type, tuple[str, ...]] = {}


# annotations of fields that never hold a node (the walk need not look at them)
_LEAF_TYPES = frozenset(
    {"str", "int", "bool", "float", "Span"}
    | {f"{leaf} | None" for leaf in ("str", "int", "bool", "float", "Span")}
    | {"tuple[str, ...]", "tuple[int, ...]"}
)


def _field_names(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes (not its span, nor text or numbers)."""
    names = _FIELDS.get(cls)
    if names is None:
        names = _FIELDS[cls] = tuple(
            f.name
            for f in fields(cls)
            if f.name != "span" and not (isinstance(f.type, str) and f.type in _LEAF_TYPES)
        )
    return names


def walk(node: Any) -> Iterator[Any]:
    """Every AST node under ``node`` (itself included), depth first."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for name in _field_names(type(current)):
            value = getattr(current, name)
            if isinstance(value, tuple):
                for item in value:
                    if hasattr(item, "__dataclass_fields__"):
                        stack.append(item)
            elif hasattr(value, "__dataclass_fields__") and not isinstance(value, Span):
                stack.append(value)


#: the least similarity (difflib's ratio) of a "did you mean" name: at 0.6, `bites` got
#: `HABILETÉ` (0.62); a typo of one or two letters stays above (`ENDURNACE`: 0.89)
NEAR = 0.75
VALUES = ("stat", "counter")


_HANDLED = (
    ast.ParagraphRef, ast.ChangeValue, ast.ValueRef, ast.Cost, ast.ItemEffect, ast.HasItem,
    ast.ItemTrigger, ast.WatchedWager, ast.ShopOffer, ast.GainItem, ast.LoseItem, ast.Test,
    ast.DuoTest, ast.D20Test, ast.Wager, ast.Fight, ast.FightThreshold, ast.EnemyStatChange,
    ast.Prose, ast.NoteParagraph, ast.NotedParagraph,
)  # fmt: skip
"""Every class :meth:`_Checker.node` or :func:`check_names` looks at: keep in step with them."""

_IDLE: dict[type, bool] = {}
"""A node's type -> whether no check looks at it (a choice, a paragraph, a branch: about half
the nodes of a book), so that the walk passes it without the chain of ``isinstance``."""


def _idle(kind: type) -> bool:
    found = _IDLE.get(kind)
    if found is None:
        found = _IDLE[kind] = not issubclass(kind, _HANDLED)
    return found


class _Checker:
    def __init__(self, ruleset: Any, label_index: Mapping[str, int], labels, errors):
        self.ruleset = ruleset
        self.label_index = label_index
        self.labels = labels
        self.errors: list[DedaleError] = errors
        self.known = ruleset.known_names() if ruleset is not None else []
        self.spelled = _spellings(ruleset) if ruleset is not None else {}
        self.enemies = EnemyChecker(ruleset, self.error) if ruleset is not None else None
        self.state: Any = None
        self.counter_goods: set[int] = set()  # shop goods that are counters (Provisions)

    def error(self, message: str, span: Span, hint: str | None = None) -> None:
        self.errors.append(BookStructureError(message, span, hint))

    def did_you_mean(self, name: str) -> str | None:
        """``did you mean `HABILETÉ`?``: the stat or counter (of the ruleset, or declared in
        book.yaml) closest to ``name`` when it is close (:data:`NEAR`), as it is spelt."""
        candidates = {n: self.spelled.get(n, n) for n in self.known if self.kind(n) in VALUES}
        for entry in getattr(self.state, "counters", ()) or ():
            candidates.setdefault(rules_fold(entry.name), entry.name)
        close = difflib.get_close_matches(rules_fold(name), list(candidates), n=1, cutoff=NEAR)
        if not close:
            return None
        return tr("did you mean `{name}`?", name=candidates[close[0]])

    def kind(self, name: str) -> str | None:
        found = self.ruleset.resolve(name)
        return found[0] if found else None

    def value_name(self, name: str, span: Span, what: str = "stat or counter") -> None:
        if self.ruleset is None or (self.state and self.state.counter(name)):
            return
        kind = self.kind(name)
        if kind in ("stat", "counter"):
            return
        hint = self.did_you_mean(name)
        if kind == "item":
            hint = tr("`{name}` is an item: use `take`/`prenez` or `drop`/`abandonnez`", name=name)
        if hint is None and what in ("stat or counter", "counter"):  # a counter to declare
            hint = tr("declare it in book.yaml: `state:` then `  counters: [{name}]`", name=name)
        self.error(_unknown(what, name), span, hint or self._names_hint())

    def _names_hint(self) -> str:
        names = [n for n in self.known if self.kind(n) in ("stat", "counter")]
        return tr(
            "known names: {names}", names=", ".join(self.spelled.get(n, n) for n in names[:12])
        )

    def ref(self, ref: ast.ParagraphRef) -> None:
        if ref.label is None or name_key(ref.label) in self.label_index:
            return
        self.error(
            tr("no paragraph is labelled `{label}`", label=ref.label), ref.span,
            did_you_mean(name_key(ref.label), list(self.label_index))
            or tr("labels are the words after the number in a header (`§ 12 cellar`)"),
        )  # fmt: skip

    def node(self, node: Any, in_margin: bool = False) -> None:
        if isinstance(node, ast.ParagraphRef):
            self.ref(node)
        elif self.ruleset is None:
            return
        elif isinstance(node, ast.ChangeValue):
            self.value_name(node.name, node.span)
        elif isinstance(node, ast.ValueRef):
            if node.name != "margin":
                self.value_name(node.name, node.span)
        elif isinstance(node, ast.Cost) and node.counter is not None:
            self.value_name(node.counter, node.span, "counter")
        elif isinstance(node, ast.ItemEffect) and node.stat is not None:
            self.value_name(node.stat, node.span, "stat")
        elif isinstance(node, ast.HasItem) and node.count != 1:  # "if 3 gold" (issue 13 §4)
            if self.kind(node.item) in ("stat", "counter"):
                self.error(
                    tr("`{name}` is a stat or counter, not an item", name=node.item), node.span,
                    tr("compare it: `if {name} >= {count}`", name=node.item, count=node.count),
                )  # fmt: skip
        elif isinstance(node, ast.ItemTrigger):  # "(when STAMINA falls to 0: ...)"
            self.value_name(node.stat, node.span)
        elif isinstance(node, ast.WatchedWager) and self.enemies is not None:
            self.value_name(node.counter, node.span, "counter")
            self.enemies.fight(ast.Fight(span=node.span, enemies=node.fighters))
        elif isinstance(node, ast.ShopOffer) and self.kind(node.goods.item) == "counter":
            self.counter_goods.add(id(node.goods))  # "buy 2 Provisions for 3 gold"
        elif isinstance(node, ast.GainItem | ast.LoseItem):
            if id(node) in self.counter_goods:
                return
            if self.kind(node.item) in ("stat", "counter"):
                if isinstance(node, ast.GainItem):
                    hint = tr("give an amount: `gain 2 {name}`", name=node.item)
                else:
                    hint = tr("give an amount: `lose 2 {name}`", name=node.item)
                self.error(
                    tr("`{name}` is a stat or counter, not an item", name=node.item), node.span,
                    hint,
                )  # fmt: skip
        elif isinstance(node, ast.Test):
            if node.against is not None:  # two rolls compared: no stat
                pass
            elif node.dice is not None:  # free-form test: dice against any stat or counter
                self.value_name(node.name, node.span)
            else:
                self.test_name(node)
        elif isinstance(node, ast.DuoTest):
            for stat in node.stats:
                self.value_name(stat, node.span, "characteristic")
            duo = getattr(self.ruleset, "duo", None)
            if duo is not None and not duo.difficulty_min <= node.difficulty <= duo.difficulty_max:
                self.error(
                    tr("difficulty {value} is out of range", value=node.difficulty), node.span,
                    tr("this ruleset's difficulties go from {low} to {high}",
                       low=duo.difficulty_min, high=duo.difficulty_max),
                )  # fmt: skip
        elif isinstance(node, ast.D20Test):
            self.value_name(node.stat, node.span, "characteristic")
            try:
                value = self.ruleset.difficulty(node.difficulty)
            except KeyError:
                self.error(
                    tr("unknown difficulty `{name}`", name=str(node.difficulty)), node.span,
                    self._difficulty_hint(str(node.difficulty)),
                )  # fmt: skip
            else:
                self.d20_range(value, node.span)
        elif isinstance(node, ast.ShopOffer | ast.Wager):
            self.value_name(node.counter, node.span, "counter")
        elif isinstance(node, ast.Fight):
            if node.attack_stat is not None:
                self.value_name(node.attack_stat, node.span, "stat")
            self.enemies.fight(node)
        elif isinstance(node, ast.FightThreshold):
            self.value_name(node.stat, node.span)
        elif isinstance(node, ast.EnemyStatChange):  # "its SKILL -2" under an enemy
            self.value_name(node.stat, node.span, "stat")
        elif isinstance(node, ast.Prose):
            self.prose(node)

    def test_name(self, node: ast.Test) -> None:
        tests = self.ruleset.tests
        if node.name in tests:
            return
        wanted = fold(node.name).lower()
        for test in tests.values():
            if wanted in {fold(n).lower() for n in (test.id, *test.names.values())}:
                return
        self.error(
            tr("this ruleset has no `{name}` test", name=node.name), node.span,
            tr("its tests: {names}", names=", ".join(tests) or "-"),
        )  # fmt: skip

    def d20_range(self, value: int | None, span: Span) -> None:
        """A numeric d20 difficulty outside the ruleset's scale of named difficulties (from
        its easiest to its hardest) is an error: no roll can miss or make it."""
        scale = d20_scale(self.ruleset)
        if value is None or scale is None or scale[0] <= value <= scale[1]:
            return
        self.error(
            tr("difficulty {value} is out of range", value=value), span,
            tr("this ruleset's difficulties go from {low} to {high}", low=scale[0], high=scale[1]),
        )  # fmt: skip

    def _difficulty_hint(self, name: str) -> str:
        d20 = getattr(self.ruleset, "d20", None)
        if d20 is None:
            return tr("this ruleset has no d20 difficulties")
        names = [n for level in d20.difficulties for n in (level.id, *level.names.values())]
        return did_you_mean(name, [fold(n).lower() for n in names]) or (
            tr("difficulties: {names}", names=", ".join(names))
        )

    def prose(self, node: ast.Prose) -> None:
        if "{" not in node.text:
            return
        guarded = node.text.replace("{{", "\x00\x00").replace("}}", "\x01\x01")
        for match in _INTERPOLATION.finditer(guarded):
            name = match.group(1).strip()
            if is_prose_ref(name):
                self.prose_ref(node, match, name)
                continue
            bare = re.sub(r"\s+(initial|initiale|initiales|initials)$", "", name, flags=re.I)
            if fold(bare).lower() in _HERO_WORDS or self.kind(bare) in ("stat", "counter"):
                continue
            if self.state and self.state.counter(bare):
                continue
            line = node.span.line + node.text.count("\n", 0, match.start())
            column = match.start() - node.text.rfind("\n", 0, match.start())
            where = Span(node.span.file, line, column, line, column + len(match.group(0)))
            self.error(
                tr("unknown name `{{{name}}}` in the text", name=name), where,
                self.did_you_mean(bare)
                or tr("interpolate {name}, {class}, a stat or a counter"),
            )  # fmt: skip

    def prose_ref(self, node: ast.Prose, match: re.Match[str], name: str) -> None:
        """``{§ 12}`` / ``{§ cellar}``: a marked reference; anything else after § is an error."""
        if parse_prose_ref(name) is not None:
            return
        line = node.span.line + node.text.count("\n", 0, match.start())
        column = match.start() - node.text.rfind("\n", 0, match.start())
        where = Span(node.span.file, line, column, line, column + len(match.group(0)))
        self.error(
            tr("malformed paragraph reference `{{{name}}}` in the text", name=name), where,
            tr("write {§ 12} (a paragraph number) or {§ label} (a paragraph's label)"),
        )  # fmt: skip


def d20_scale(ruleset: Any) -> tuple[int, int] | None:
    """The lowest and highest numeric difficulty the ruleset names (None: no d20 scale)."""
    d20 = getattr(ruleset, "d20", None)
    values = [level.value for level in getattr(d20, "difficulties", ()) if level.value is not None]
    return (min(values), max(values)) if values else None


def _unknown(what: str, name: str) -> str:
    """``unknown stat `X``` (one message per kind of name, for the translators)."""
    if what == "counter":
        return tr("unknown counter `{name}`", name=name)
    if what == "stat":
        return tr("unknown stat `{name}`", name=name)
    if what == "characteristic":
        return tr("unknown characteristic `{name}`", name=name)
    return tr("unknown stat or counter `{name}`", name=name)


def _spellings(ruleset: Any) -> dict[str, str]:
    """Folded name -> the name as the ruleset writes it (display names first)."""
    spelled: dict[str, str] = {}
    groups = (ruleset.stats, ruleset.counters, tuple(ruleset.items.values()))
    for group in groups:
        for entry in group:
            for written in (*entry.names.values(), entry.id, *entry.aliases):
                spelled.setdefault(rules_fold(written), written)
    return spelled


def check_names(
    paragraphs: Mapping[int, ast.Paragraph],
    label_index: Mapping[str, int],
    labels: Mapping[str, int],
    ruleset: Any,
    errors: list[DedaleError],
    start_items: tuple[ast.GainItem, ...] = (),
    state: Any = None,
) -> None:
    """Append an error for every unresolved label and every name the ruleset lacks
    (in the paragraphs and in book.yaml's ``start_items``)."""
    checker = _Checker(ruleset, label_index, labels, errors)
    checker.state = state  # the book's own counters (book.yaml `state:`) are values too
    for item in start_items:
        for node in walk(item):
            checker.node(node)
    noted: set[str] = set()
    wanted: list[ast.NotedParagraph] = []
    idle = _IDLE.get
    for paragraph in paragraphs.values():
        for node in walk(paragraph):
            skip = idle(type(node))
            if skip is None:
                skip = _idle(type(node))
            if skip:
                continue
            checker.node(node)
            if isinstance(node, ast.NoteParagraph):
                noted.add(name_key(node.name))
            elif isinstance(node, ast.NotedParagraph):
                wanted.append(node)
    for node in wanted:  # "[noted cave]" needs a "note paragraph cave" somewhere
        if name_key(node.name) not in noted:
            checker.error(
                tr("no paragraph is noted as `{name}`", name=node.name), node.span,
                tr(
                    "write `> note paragraph {name}` / `> notez paragraphe {name}` "
                    "in the paragraph to come back to",
                    name=node.name,
                ),
            )  # fmt: skip
