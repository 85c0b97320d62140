"""The book's own flags and counters resolved in the paragraphs, at load time.

The grammar cannot tell ``if met lieutenant`` (a flag) from ``if Rope`` (an item): both
are a bare name. Once book.yaml's ``state:`` is known, this pass rewrites each use:

* a bare name that is a declared flag becomes :class:`ast.HasFlag`; a declared counter
  becomes ``counter >= 1`` (``if 2 lieutenants met``: ``>= 2``);
* ``gain 1 lieutenants`` / ``lose``/``set`` on a declared counter becomes
  :class:`ast.ChangeCount` (``add 1 to lieutenants met`` already is one);
* ``note``/``clear`` of an undeclared flag, ``add … to`` an undeclared counter, and (in a
  book that declares its state) a condition on a name that is neither a flag, a counter nor
  an item the book gives, are load errors at the line, with a "did you mean".

A book without ``state:`` keeps its meaning: bare names are items, as before.
"""

from __future__ import annotations

import difflib
import re
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import fields, replace
from typing import Any

from dedale import ast
from dedale.errors import BookStructureError, DedaleError
from dedale.i18n import tr
from dedale.language.book_state import BookState
from dedale.language.checks import walk
from dedale.language.keywords import name_key
from dedale.span import Span

_FIELDS: dict[type, tuple[str, ...]] = {}


def _names(cls: type) -> tuple[str, ...]:
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name != "span")
    return found


def _is_node(value: Any) -> bool:
    return hasattr(value, "__dataclass_fields__") and not isinstance(value, Span)


_LEAVES = frozenset(
    (*typing.get_args(ast.Condition), *typing.get_args(ast.Expr), ast.ParagraphRef, ast.Prose)
)


def _statements(node: Any) -> Iterator[Any]:
    """The statement-like nodes under ``node`` (conditions, expressions, destinations and
    prose are not entered: the new directives are never inside them)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for name in _names(type(current)):
            value = getattr(current, name)
            if type(value) is tuple:
                stack.extend(v for v in value if _is_node(v) and type(v) not in _LEAVES)
            elif value is not None and type(value) not in _LEAVES and _is_node(value):
                stack.append(value)


# statements that hold no other statement (the rest are searched through)
_FLAT = frozenset(
    {
        ast.Prose, ast.Goto, ast.ChangeValue, ast.GainItem, ast.LoseItem, ast.SetCodeword,
        ast.ClearCodeword, ast.OpenWorld, ast.AllowRevisit, ast.MealRule, ast.Ending,
    }
)  # fmt: skip


_CHOICE_LISTS = tuple(
    f.name for f in fields(ast.Choice) if f.default == () and f.name != "costs"
)  # lists a choice may carry besides its costs (effects, if a construct adds them)


def _choice_holds(choice: ast.Choice) -> bool:
    return any(getattr(choice, name) for name in _CHOICE_LISTS)


def _uses_new_syntax(paragraphs: Mapping[int, ast.Paragraph]) -> bool:
    """Whether a flag or book-counter directive is written anywhere."""
    for paragraph in paragraphs.values():
        for statement in paragraph.body:
            kind = type(statement)
            if kind in _FLAT or (kind is ast.Choice and not _choice_holds(statement)):
                continue
            if kind in _NEW_SYNTAX or any(type(n) in _NEW_SYNTAX for n in _statements(statement)):
                return True
    return False


def _rebuild(node: Any, change: Callable[[Any], Any]) -> Any:
    """``node`` with every sub-node ``change`` replaces replaced (shared when unchanged)."""
    new = change(node)
    if new is not node:
        return new
    changed: dict[str, Any] = {}
    for name in _names(type(node)):
        value = getattr(node, name)
        if isinstance(value, tuple):
            items = tuple(_rebuild(item, change) if _is_node(item) else item for item in value)
            if any(a is not b for a, b in zip(items, value, strict=True)):
                changed[name] = items
        elif _is_node(value):
            item = _rebuild(value, change)
            if item is not value:
                changed[name] = item
    return replace(node, **changed) if changed else node


def _given_items(
    paragraphs: Mapping[int, ast.Paragraph], start_items: tuple[ast.GainItem, ...], ruleset: Any
) -> dict[str, str]:
    """Every item the book, book.yaml or the ruleset names outside conditions (taken, bought,
    dropped, given up...): key -> name as written. Any node with an ``item`` counts, so that
    a new way of getting items is known here without a change."""
    given: dict[str, str] = {}
    for item in start_items:
        given.setdefault(name_key(item.item), item.item)
    for paragraph in paragraphs.values():
        for node in walk(paragraph):
            item = getattr(node, "item", None)  # taken, bought, given, dropped, numbered...
            if type(node) is not ast.HasItem and isinstance(item, str) and item:
                given.setdefault(name_key(item), item)
    if ruleset is not None:
        for item in getattr(ruleset, "items", {}).values():
            for written in (item.id, *item.names.values(), *item.aliases):
                given.setdefault(name_key(written), written)
        for klass in getattr(ruleset, "classes", {}).values():
            for written in klass.kit:
                given.setdefault(name_key(written), written)
    return given


_CODEWORD_WORDS = re.compile(r"(?i)^(?:(?:le|the|un|a)\s+)?(?:mot-code|mot code|codeword)\s+")
"""A flag name that is a codeword with an article before it (``le mot-code BÉNI``)."""


class _Resolver:
    def __init__(self, state: BookState, ruleset: Any, errors: list[DedaleError]):
        self.state = state
        self.ruleset = ruleset
        self.errors = errors
        self.items: dict[str, str] = {}

    def error(self, message: str, span: Span, hint: str | None) -> None:
        self.errors.append(BookStructureError(message, span, hint))

    def near(self, name: str, candidates: list[str]) -> str | None:
        keys = {name_key(c): c for c in candidates}
        close = difflib.get_close_matches(name_key(name), list(keys), n=1, cutoff=0.6)
        return tr("did you mean `{name}`?", name=keys[close[0]]) if close else None

    def declare_hint(self, kind: str, name: str) -> str:
        if kind == "flag":
            word = _CODEWORD_WORDS.sub("", name)
            if word != name:  # "notez le mot-code BÉNI": a codeword, written with its article
                return tr(
                    "a codeword is written without an article: `notez mot-code {name}` / "
                    "`note codeword {name}`",
                    name=word,
                )
            return tr(
                "declare it in book.yaml: `state:` then `  flags: [{name}]`; for a codeword "
                "write `note codeword {name}`",
                name=name,
            )
        return tr("declare it in book.yaml: `state:` then `  counters: [{name}]`", name=name)

    def ruleset_value(self, name: str) -> bool:
        found = self.ruleset.resolve(name) if self.ruleset is not None else None
        return found is not None and found[0] in ("stat", "counter")

    # ------------------------------------------------------------------ one node
    def change(self, node: Any) -> Any:
        kind = type(node)
        if kind is ast.HasItem:
            return self.has_item(node)
        if kind is ast.SetFlag or kind is ast.ClearFlag:
            return self.flag_change(node)
        if kind is ast.ChangeCount:
            return self.count_change(node)
        if kind is ast.ChangeValue and self.state:
            entry = self.state.counter(node.name)
            if entry is None:
                return node
            if node.op not in ("add", "sub", "set") or node.amount is None:
                self.error(
                    tr("`{name}` is a counter of the book: add to it, take from it or set it",
                       name=node.name),
                    node.span,
                    tr("`add 1 to {name}`, `remove 1 from {name}`", name=entry.name),
                )  # fmt: skip
                return node
            return ast.ChangeCount(span=node.span, op=node.op, name=entry.name, amount=node.amount)
        return node

    def has_item(self, node: ast.HasItem) -> Any:
        if not self.state:
            return node
        flag = self.state.flag(node.item)
        if flag is not None:
            if node.count != 1:
                self.error(
                    tr("`{name}` is a flag: it is set or not, it has no count", name=node.item),
                    node.span,
                    tr("write `if {name}` or `if not {name}`", name=flag.name),
                )
            return ast.HasFlag(span=node.span, name=flag.name)
        counter = self.state.counter(node.item)
        if counter is not None:
            return ast.Compare(
                span=node.span,
                left=ast.ValueRef(span=node.span, name=counter.name),
                op=">=",
                right=ast.Num(span=node.span, value=node.count),
            )
        if name_key(node.item) not in self.items:
            names = [*self.state.names(), *self.items.values()]
            self.error(
                tr("`{name}` is neither a flag, a counter nor an item of this book",
                   name=node.item),
                node.span,
                self.near(node.item, names) or self.declare_hint("flag", node.item),
            )  # fmt: skip
        return node

    def flag_change(self, node: ast.SetFlag | ast.ClearFlag) -> Any:
        flag = self.state.flag(node.name)
        if flag is not None:
            return node if flag.name == node.name else replace(node, name=flag.name)
        counter = self.state.counter(node.name)
        if counter is not None:
            hint = tr("`{name}` is a counter: `add 1 to {name}`", name=counter.name)
        else:
            hint = self.near(node.name, [e.name for e in self.state.flags]) or self.declare_hint(
                "flag", node.name
            )
        self.error(tr("`{name}` is not a flag of this book", name=node.name), node.span, hint)
        return node

    def count_change(self, node: ast.ChangeCount) -> Any:
        counter = self.state.counter(node.name)
        if counter is not None:
            return node if counter.name == node.name else replace(node, name=counter.name)
        if self.ruleset_value(node.name):  # "add 2 to gold": the ruleset's counter
            return ast.ChangeValue(span=node.span, op=node.op, name=node.name, amount=node.amount)
        hint = self.near(node.name, [e.name for e in self.state.counters]) or self.declare_hint(
            "counter", node.name
        )
        self.error(tr("`{name}` is not a counter of this book", name=node.name), node.span, hint)
        return node

    def clashes(self) -> None:
        """A declared name that the ruleset already uses would be read two ways."""
        for entry in (*self.state.flags, *self.state.counters):
            if self.ruleset is not None and self.ruleset.resolve(entry.name) is not None:
                self.error(
                    tr("`{name}` is already a name of the ruleset", name=entry.name),
                    entry.span,
                    tr("give the book's flag or counter another name"),
                )
            elif entry.key in self.items and self.state.flag(entry.name) is entry:
                self.error(
                    tr("`{name}` is declared as a flag but the book also gives it as an item",
                       name=entry.name),
                    entry.span,
                    tr("give the flag or the item another name"),
                )  # fmt: skip


def _written_back(entry: Any, is_flag: bool) -> bool:
    """Whether the paragraphs can write ``entry``'s name: each line that uses it parses
    back to that name (a name beginning with a keyword, or holding *and*/*or*, cannot)."""
    from dedale.language.parser import parse_collecting

    name = entry.name
    if is_flag:
        lines = [f"> note {name}", f"> clear {name}", f"> if {name}: victory"]
        wanted = [ast.SetFlag, ast.ClearFlag, ast.If]
    else:
        lines = [f"> add 1 to {name}", f"> if {name} >= 1: victory"]
        wanted = [ast.ChangeCount, ast.If]
    parsed, errors = parse_collecting("§ 1\n" + "\n".join(lines) + "\n", "check")
    body = parsed.paragraphs[0].body if parsed.paragraphs else ()
    if errors or [type(s) for s in body] != wanted:
        return False
    names = [getattr(s, "name", None) for s in body[:-1]]
    condition = body[-1].condition
    if type(condition) is ast.HasItem:
        last = condition.item
    elif type(condition) is ast.Compare and type(condition.left) is ast.ValueRef:
        last = condition.left.name
    else:
        return False
    return all(found == name for found in (*names, last))


def resolve_state(
    paragraphs: Mapping[int, ast.Paragraph],
    state: BookState,
    ruleset: Any,
    start_items: tuple[ast.GainItem, ...],
    errors: list[DedaleError],
) -> dict[int, ast.Paragraph]:
    """The paragraphs with the book's flags and counters resolved (see the module
    docstring); every misuse appended to ``errors``."""
    resolver = _Resolver(state, ruleset, errors)
    if state:
        resolver.items = _given_items(paragraphs, start_items, ruleset)
        resolver.clashes()
        for entry in (*state.flags, *state.counters):
            if not _written_back(entry, state.flag(entry.name) is entry):
                resolver.error(
                    tr("the paragraphs cannot write the name `{name}`", name=entry.name),
                    entry.span,
                    tr("a name may not begin with a keyword (item, codeword, not, visited…) "
                       "nor hold and/or; choose other words"),
                )  # fmt: skip
    elif not _uses_new_syntax(paragraphs):
        return dict(paragraphs)  # an older book: nothing to resolve
    return {number: _rebuild(p, resolver.change) for number, p in paragraphs.items()}


_NEW_SYNTAX = frozenset({ast.SetFlag, ast.ClearFlag, ast.ChangeCount})
