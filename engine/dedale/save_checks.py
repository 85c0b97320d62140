"""The checks that make a save file safe to use: size of nesting, numbers, every field's type.

A save is untrusted input (edited by hand, damaged, or hostile). :func:`check_nesting` runs
before the JSON parser (which recurses), :func:`parse_int` inside it (Python refuses integers
past 4,300 digits with a ValueError), and :func:`check_fields` on the parsed document against
:data:`SAVE_SCHEMA`, which gives every field its type and a sane range. Each failure is a
SaveError at the line and column of the bad field. Used by :func:`dedale.saves.read_save`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dedale.errors import SaveError
from dedale.i18n import tr
from dedale.span import Span

MAX_DEPTH = 24
"""Deepest nesting of lists and objects a save may have (a real one has 6)."""
MAX_DIGITS = 24
"""Longest integer a save may hold (seeds are below 2**64: 20 digits)."""


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def span_of(source: Path, text: str, offset: int) -> Span:
    """The line and column of ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Span(str(source), line, column)


def check_nesting(source: Path, text: str) -> None:
    """Refuse lists and objects nested past MAX_DEPTH before the JSON parser recurses."""
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise SaveError(
                    tr(
                        "the save {path} is corrupted: its data is nested more than {limit} "
                        "levels deep",
                        path=str(source),
                        limit=MAX_DEPTH,
                    ),
                    span_of(source, text, match.start()),
                    hint=tr("the file was damaged or edited by hand; use an older save"),
                )
        elif token in "]}":
            depth -= 1


class BadNumber(Exception):
    """A number the JSON parser met that no save can hold."""

    def __init__(self, problem: str, pattern: str) -> None:
        super().__init__(problem)
        self.problem = problem
        self.pattern = pattern

    def position(self, text: str) -> int:
        found = re.search(self.pattern, text)
        return found.start() if found else 0


def parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise BadNumber(
            tr("a number has {count} digits (at most {limit})", count=len(text), limit=MAX_DIGITS),
            r"-?\d{" + str(MAX_DIGITS + 1) + ",}",
        )
    return int(text)


def refuse_constant(name: str) -> Any:
    raise BadNumber(tr("{name} is not a number a save can hold", name=name), re.escape(name))


# A field's spec is a function (value, path) -> problem or None; records check their keys.
Check = Callable[[Any, tuple[str, ...]], "tuple[tuple[str, ...], str] | None"]


def _integer(low: int, high: int) -> Check:
    def check(value: Any, path: tuple[str, ...]):
        if not isinstance(value, int) or isinstance(value, bool):
            return path, tr("a whole number is expected, not {got}", got=_kind(value))
        if not low <= value <= high:
            return path, tr(
                "{value} is out of range ({low} to {high})", value=value, low=low, high=high
            )
        return None

    return check


def _text(limit: int = 1000) -> Check:
    def check(value: Any, path: tuple[str, ...]):
        if not isinstance(value, str):
            return path, tr("a text is expected, not {got}", got=_kind(value))
        if len(value) > limit or "\x00" in value:
            return path, tr("the text is too long or holds a NUL character")
        return None

    return check


def _boolean(value: Any, path: tuple[str, ...]):
    if not isinstance(value, bool):
        return path, tr("true or false is expected, not {got}", got=_kind(value))
    return None


def _optional(inner: Check) -> Check:
    def check(value: Any, path: tuple[str, ...]):
        return None if value is None else inner(value, path)

    return check


def _list(inner: Check, limit: int) -> Check:
    def check(value: Any, path: tuple[str, ...]):
        if not isinstance(value, list):
            return path, tr("a list is expected, not {got}", got=_kind(value))
        if len(value) > limit:
            return path, _too_many("list", len(value), limit)
        for index, entry in enumerate(value):
            found = inner(entry, (*path, f"[{index}]"))
            if found:
                return found
        return None

    return check


def _tuple(*inners: Check) -> Check:
    def check(value: Any, path: tuple[str, ...]):
        if not isinstance(value, list) or len(value) != len(inners):
            return path, tr("a list of {count} values is expected", count=len(inners))
        for index, (inner, entry) in enumerate(zip(inners, value, strict=True)):
            found = inner(entry, (*path, f"[{index}]"))
            if found:
                return found
        return None

    return check


def _mapping(inner: Check, limit: int = 10_000, key: Check | None = None) -> Check:
    key = key or _text(200)

    def check(value: Any, path: tuple[str, ...]):
        if not isinstance(value, dict):
            return path, tr("an object is expected, not {got}", got=_kind(value))
        if len(value) > limit:
            return path, _too_many("object", len(value), limit)
        for name, entry in value.items():
            found = key(name, (*path, name)) or inner(entry, (*path, name))
            if found:
                return found
        return None

    return check


_MISSING = "this field is missing"


def _record(fields: dict[str, Check], required: tuple[str, ...] = (), other: Check | None = None):
    """An object with these fields (``required`` ones must be there); other keys: ``other``."""

    def check(value: Any, path: tuple[str, ...]):
        if not isinstance(value, dict):
            return path, tr("an object is expected, not {got}", got=_kind(value))
        for name in required:
            if name not in value:
                return (*path, name), tr(_MISSING)
        for name, entry in value.items():
            inner = fields.get(name, other)
            if inner is not None:
                found = inner(entry, (*path, name))
                if found:
                    return found
        return None

    return check


CHANGE_OPS = ("add", "sub", "set", "restore", "raise_initial", "lower_initial")
"""The changes a saved trigger may make (those of ``> gain``, ``> lose``, ``> set``...)."""


def _one_of(allowed: tuple[str, ...]) -> Check:
    def check(value: Any, path: tuple[str, ...]):
        if value not in allowed:
            return path, tr("one of {allowed} is expected", allowed=", ".join(allowed))
        return None

    return check


def _amount(value: Any, path: tuple[str, ...]):
    """A change's amount: none, a number or dice (``1d6``)."""
    if value is None:
        return None
    if isinstance(value, str):
        if len(value) > 50 or not re.fullmatch(r"\d*[dD]\d+(?:[+-]\d+)?", value):
            return path, tr("dice such as `1d6` are expected, not {got}", got=_kind(value))
        return None
    return _integer(-(10**9), 10**9)(value, path)


def _scalar(value: Any, path: tuple[str, ...]):
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return _integer(-(10**12), 10**12)(value, path)
    if isinstance(value, str):
        return _text()(value, path)
    return path, tr("a number, a text or true/false is expected, not {got}", got=_kind(value))


def _decision(value: Any, path: tuple[str, ...]):
    """An answer (scalar or list of scalars) or an action (object of those)."""
    if isinstance(value, list):
        return _list(_scalar, 100)(value, path)
    if isinstance(value, dict):
        return _mapping(_decision_part, 50)(value, path)
    return _scalar(value, path)


def _decision_part(value: Any, path: tuple[str, ...]):
    return _list(_scalar, 100)(value, path) if isinstance(value, list) else _scalar(value, path)


def _too_many(what: str, count: int, limit: int) -> str:
    if what == "list":
        return tr("the list has {count} entries (at most {limit})", count=count, limit=limit)
    return tr("the object has {count} entries (at most {limit})", count=count, limit=limit)


def _kind(value: Any) -> str:
    for kind, name in ((bool, "true/false"), (int, "a number"), (float, "a decimal number")):
        if isinstance(value, kind):
            return tr(name)
    names = {str: "a text", list: "a list", dict: "an object", type(None): "null"}
    return tr(names.get(type(value), "something else"))


_STAT = _integer(-(10**9), 10**9)
_NAMED_VALUES = _mapping(_STAT, 1000)
_PARAGRAPH = _integer(0, 10**9)
_WORDS = _list(_text(200), 10_000)
_HERO = _record(
    {
        "stats": _NAMED_VALUES,
        "initial": _NAMED_VALUES,
        "counters": _NAMED_VALUES,
        "items": _NAMED_VALUES,
        "class": _optional(_text(200)),
        "fights_with_armour": _STAT,
        "item_effects": _mapping(
            _record(
                {
                    "weapon": _boolean,
                    "bonuses": _list(_tuple(_text(200), _STAT, _optional(_text(200))), 100),
                    "tags": _list(_text(200), 100),
                    "triggers": _list(
                        _tuple(_text(200), _STAT, _one_of(CHANGE_OPS), _text(200), _amount), 100
                    ),
                },
                ("weapon", "bonuses"),
            ),
            1000,
        ),
        "protection_worn": _NAMED_VALUES,
        "armour_wear": _mapping(_list(_STAT, 10_000), 10_000),
        "trained": _WORDS,
        "uncapped": _WORDS,
    },
    ("stats", "initial", "counters", "items"),
)
_STATE = _record(
    {
        "version": _integer(0, 10**6),
        "hero": _optional(_HERO),
        "name": _text(),
        "paragraph": _optional(_PARAGRAPH),
        "codewords": _WORDS,
        "visited": _mapping(_integer(0, 10**9), 10**6, key=_text(12)),
        "worlds": _WORDS,
        "meal_allowed": _boolean,
        "in_fight": _boolean,
        "history": _list(_tuple(_PARAGRAPH, _integer(0, 10**7)), 10**6),
        "outcome": _optional(_text(100)),
        "death_reason": _text(),
        "came_from": _optional(_PARAGRAPH),
        "marks": _NAMED_VALUES,
        "statuses": _mapping(_mapping(_scalar, 100), 1000),
        "item_numbers": _NAMED_VALUES,
        "stop": _integer(0, 10**6),
        "gender": _one_of(("f", "m")),  # the hero's, as the player chose it (issue 16.5)
        "flags": _list(_text(200), 1000),  # the book's own flags set (book.yaml `state:`)
        "counts": _mapping(_integer(0, 10**6), 1000),  # and its counters' values
        "penalties": _mapping(
            _record(
                {
                    "stat": _text(200),
                    "amount": _integer(0, 10**9),
                    "item": _optional(_text(200)),
                    "weapon": _boolean,
                },
                ("stat", "amount", "item", "weapon"),
            ),
            100,
        ),
    },
    ("paragraph", "codewords", "visited", "worlds", "meal_allowed", "history"),
)
SAVE_SCHEMA = _record(
    {
        "format": _text(50),
        "version": _integer(0, 10**6),
        "book": _record({"title": _text(), "fingerprint": _text(200)}, ("title", "fingerprint")),
        "seed": _integer(-(2**64), 2**64),
        "creation": _record(
            {
                "hero": _optional(_list(_integer(-(10**6), 10**6), 50)),
                "class": _optional(_text(200)),
                "name": _optional(_text(200)),
                "lang": _optional(_text(20)),
                "gender": _optional(_one_of(("f", "m"))),  # chosen at creation (issue 16.5)
            },
            other=_scalar,
        ),
        "origin": _optional(
            _record({"state": _STATE, "seed": _integer(-(2**65), 2**65)}, ("state",))
        ),
        "decisions": _list(_decision, 10**6),
        "state": _STATE,
        "book_path": _text(4096),
    },
    ("format", "version", "book", "seed", "creation", "decisions", "state"),
)
"""Every field of a save, its type and its range (extra fields must be plain values)."""


def check_fields(source: Path, text: str, document: Any) -> None:
    """Raise SaveError at the first field of ``document`` that does not fit SAVE_SCHEMA."""
    found = SAVE_SCHEMA(document, ())
    if found is None:
        return
    path, problem = found
    shown = ".".join(path).replace(".[", "[") or tr("the document")
    if getattr(problem, "msgid", None) == _MISSING:
        message = tr(
            "the save {path} is incomplete: field {field!r} is missing",
            path=str(source),
            field=shown,
        )
    else:
        message = tr(
            "the save {path} is corrupted: field {field}: {problem}",
            path=str(source),
            field=shown,
            problem=problem,
        )
    raise SaveError(
        message,
        span_of(source, text, _locate(text, path)),
        hint=tr("the file was damaged or edited by hand; use an older save"),
    )


def _locate(text: str, path: tuple[str, ...]) -> int:
    """The offset of the deepest key of ``path`` found in ``text`` (0 if none)."""
    offset = 0
    for name in path:
        if name.startswith("["):
            continue
        found = re.compile(re.escape(json.dumps(name, ensure_ascii=False)) + r"\s*:").search(
            text, offset
        )
        if found is None:
            break
        offset = found.start()
    return offset
