"""Readers shared by the ruleset schema modules: typed values with positioned errors."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from dedale import limits
from dedale.errors import DiceExpressionError, RulesetError
from dedale.i18n import tr
from dedale.rules.dice import Dice, DiceExpr, parse_dice
from dedale.rules.yamltree import YNode, did_you_mean
from dedale.span import Span

T = TypeVar("T")


def fail(message: str, node: YNode, hint: str | None = None) -> RulesetError:
    return RulesetError(message, node.span, hint)


def check_keys(node: YNode, allowed: tuple[str, ...], what: str) -> None:
    """Refuse a key of the mapping ``node`` that is not ``allowed`` (an empty value, which
    :func:`as_map` reads as no keys, has none to refuse)."""
    if not node.is_map:
        return
    for key in node.value:
        if key not in allowed:
            span = node.key_spans.get(key, node.span)
            hint = did_you_mean(key, allowed) or tr(
                "{what} accepts: {names}", what=what, names=", ".join(allowed)
            )
            raise RulesetError(tr("unknown key `{key}` in {what}", key=key, what=what), span, hint)


def as_map(node: YNode, what: str, example: str) -> dict[str, YNode]:
    if node.value is None:
        return {}
    if not node.is_map:
        raise fail(
            tr("{what} must be a mapping", what=what),
            node,
            tr("for example: {example}", example=example),
        )
    return node.value


def as_int(
    node: YNode,
    what: str,
    minimum: int | None = None,
    allow_none: bool = False,
    maximum: int | None = None,
):
    """A whole number in ``[minimum, maximum]`` (by default the range of any ruleset value)."""
    if node.value is None and allow_none:
        return None
    if isinstance(node.value, bool) or not isinstance(node.value, int):
        raise fail(
            tr("{what} must be a whole number, not {value}", what=what, value=repr(node.value)),
            node,
            tr("for example: {example}", example=2),
        )
    low = limits.RULE_VALUE.low if minimum is None else minimum
    high = limits.RULE_VALUE.high if maximum is None else maximum
    hint = tr("{what} is from {low} to {high}", what=what, low=low, high=high)
    if minimum is not None and node.value < minimum:
        raise fail(tr("{what} must be at least {low}", what=what, low=minimum), node, hint)
    if not low <= node.value <= high:
        raise fail(tr("{what} cannot be {value}", what=what, value=node.value), node, hint)
    return int(node.value)


def int_in(low: int, high: int, allow_none: bool = False) -> Callable[[YNode, str], int]:
    """A reader of whole numbers from ``low`` to ``high`` (for ``opt`` and ``as_list``)."""
    return lambda node, what: as_int(node, what, low, allow_none, high)


def as_bool(node: YNode, what: str) -> bool:
    if not isinstance(node.value, bool):
        raise fail(
            tr("{what} must be true or false, not {value}", what=what, value=repr(node.value)),
            node,
            tr("write true or false"),
        )
    return node.value


def as_str(node: YNode, what: str) -> str:
    if not isinstance(node.value, str | int) or isinstance(node.value, bool) or node.value == "":
        raise fail(
            tr("{what} must be a name, not {value}", what=what, value=repr(node.value)),
            node,
            tr("write a name or a number, without brackets or braces"),
        )
    return str(node.value)


def as_dice(node: YNode, what: str, low: int | None = None, high: int | None = None) -> DiceExpr:
    """A dice expression whose totals (names left out) stay within ``[low, high]``."""
    if isinstance(node.value, int) and not isinstance(node.value, bool):
        expr = _dice(node, str(node.value))
    elif not isinstance(node.value, str):
        raise fail(
            tr("{what} must be a dice expression", what=what),
            node,
            tr("expected a dice expression like 2d6+12"),
        )
    else:
        expr = _dice(node, node.value)
    high = limits.STAT.high if high is None else high
    low = -high if low is None else low
    smallest, largest = _range_of(expr)
    if expr.names:  # the named values are unknown here: only the rest is bounded
        low = -high
    if smallest < low:
        raise fail(
            tr("{what} can roll {value}, below {low}", what=what, value=smallest, low=low),
            node,
            tr("{what} is rolled from {low} to {high}: write it like 2d6+6", what=what,
               low=low, high=high),
        )  # fmt: skip
    if largest > high:
        raise fail(
            tr("{what} can roll {value}, above {high}", what=what, value=largest, high=high),
            node,
            tr("{what} is rolled from {low} to {high}", what=what, low=low, high=high),
        )
    return expr


def roll_in(low: int, high: int | None = None) -> Callable[[YNode, str], DiceExpr]:
    """A reader of dice expressions rolling from ``low`` to ``high`` (for ``opt``)."""
    return lambda node, what: as_dice(node, what, low, high)


def _range_of(expr: DiceExpr) -> tuple[int, int]:
    """The smallest and largest totals of ``expr``, counting its named values as 0."""
    low = high = 0
    for sign, term in expr.terms:
        if isinstance(term, int):
            low, high = low + sign * term, high + sign * term
        elif isinstance(term, Dice):
            kept = term.count if term.keep is None else term.keep
            least, most = kept, kept * term.sides
            low, high = (low + least, high + most) if sign > 0 else (low - most, high - least)
    return low, high


def _dice(node: YNode, text: str) -> DiceExpr:
    try:
        return parse_dice(text)
    except DiceExpressionError as error:
        column = error.span.column if error.span else 1
        span = node.span
        raise RulesetError(
            error.message,
            Span(span.file, span.line, span.column + column - 1),
            tr("expected a dice expression like 2d6+12"),
        ) from None


def as_names(node: YNode, what: str) -> dict[str, str]:
    if isinstance(node.value, str):
        return {"fr": node.value, "en": node.value}
    entries = as_map(node, what, "{fr: HABILETÉ, en: SKILL}")
    return {lang: as_str(value, f"{what} ({lang})") for lang, value in entries.items()}


def as_list(node: YNode, what: str, item: Callable[[YNode, str], T]) -> tuple[T, ...]:
    if node.value is None:
        return ()
    if not isinstance(node.value, list):
        raise fail(
            tr("{what} must be a list", what=what),
            node,
            tr("for example: {example}", example="[a, b]"),
        )
    return tuple(item(child, what) for child in node.value)


def opt(entries: dict[str, YNode], key: str, read: Callable[..., T], default: T, *args) -> T:
    node = entries.get(key)
    if node is None:
        return default
    return read(node, key, *args)


def need(parent: YNode, entries: dict[str, YNode], key: str, what: str, example: str) -> YNode:
    node = entries.get(key)
    if node is None:
        raise fail(
            tr("{what} needs `{key}`", what=what, key=key),
            parent,
            tr("add `{key}: {example}`", key=key, example=example),
        )
    return node


def ref_check(node: YNode, value: str, known: list[str], what: str) -> str:
    """``value`` when it is one of ``known`` (``what``: ``stat``, ``counter`` or ``test``)."""
    if value not in known:
        names = ", ".join(known)
        if what == "stat":
            message = tr("unknown stat `{name}`", name=value)
            listed = tr("known stats: {names}", names=names) if known else tr("no stats yet")
        elif what == "counter":
            message = tr("unknown counter `{name}`", name=value)
            listed = tr("known counters: {names}", names=names) if known else tr("no counters yet")
        else:
            message = tr("unknown test `{name}`", name=value)
            listed = tr("known tests: {names}", names=names) if known else tr("no tests yet")
        raise fail(message, node, did_you_mean(value, known) or listed)
    return value


def read_pair(node: YNode, what: str) -> tuple[int, int]:
    pair = as_list(node, what, as_int)
    if len(pair) != 2 or pair[0] > pair[1]:
        raise fail(
            tr("{what} must be [low, high]", what=what),
            node,
            tr("for example: {example}", example="[2, 12]"),
        )
    return pair[0], pair[1]
