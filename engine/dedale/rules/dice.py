"""Dice expressions: ``2d6``, ``1d6+6``, ``2d6+SKILL``, ``1d20+bonus(DEX)+action``, ``2d20kh1``.

``parse_dice(text)`` gives a :class:`DiceExpr` (parsed once by the grammar
``dedale.grammar/dice.lark``). ``expr.roll(rng, values)`` rolls it, asking ``values(name)``
for each name; ``min()``, ``max()`` and ``distribution()`` work on expressions without names.
``bonus(X)`` is the d20 characteristic bonus ``(X - 10) // 2``.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from dedale import limits
from dedale.errors import DiceExpressionError
from dedale.i18n import tr
from dedale.rules.random_source import RandomSource
from dedale.span import Span

if TYPE_CHECKING:
    from lark import Lark, Tree

MAX_DICE = limits.DICE_COUNT.high
MAX_SIDES = limits.DICE_SIDES.high
MAX_DISTRIBUTION_STEPS = limits.MAX_DISTRIBUTION_STEPS


def characteristic_bonus(value: int) -> int:
    """The d20 bonus of a characteristic: 10-11 -> 0, 12-13 -> +1, 8-9 -> -1."""
    return (value - 10) // 2


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice of ``sides`` faces, optionally keeping the ``keep`` highest/lowest."""

    count: int
    sides: int
    keep: int | None = None
    keep_highest: bool = True

    def __str__(self) -> str:
        text = f"{self.count}d{self.sides}"
        if self.keep is not None:
            text += f"k{'h' if self.keep_highest else 'l'}{self.keep}"
        return text


@dataclass(frozen=True, slots=True)
class Name:
    """A value looked up when rolling (a stat, ``action``...)."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Bonus:
    """``bonus(NAME)``: the characteristic bonus of a value."""

    name: str

    def __str__(self) -> str:
        return f"bonus({self.name})"


Term = Dice | Name | Bonus | int


@dataclass(frozen=True, slots=True)
class DiceExpr:
    """A sum of signed terms; ``text`` is the expression as written."""

    text: str
    terms: tuple[tuple[int, Term], ...]

    def __str__(self) -> str:
        return self.text

    @property
    def names(self) -> tuple[str, ...]:
        """Every name (and bonus name) the expression needs, in order."""
        return tuple(t.name for _, t in self.terms if isinstance(t, Name | Bonus))

    @property
    def dice(self) -> tuple[Dice, ...]:
        return tuple(t for _, t in self.terms if isinstance(t, Dice))

    def roll(
        self, rng: RandomSource, values: Callable[[str], int] | None = None
    ) -> tuple[int, tuple[int, ...]]:
        """Roll: ``(total, faces)``; faces are every die rolled, in order."""
        total = 0
        faces: list[int] = []
        for sign, term in self.terms:
            if isinstance(term, int):
                total += sign * term
            elif isinstance(term, Dice):
                rolled = rng.roll_dice(term.count, term.sides)
                faces.extend(rolled)
                total += sign * _kept_sum(rolled, term)
            else:
                if values is None:
                    raise DiceExpressionError(
                        tr(
                            "the dice expression '{text}' needs the value of {name}",
                            text=self.text,
                            name=term.name,
                        ),
                        hint=tr("only expressions without names can be rolled on their own"),
                    )
                value = values(term.name)
                if isinstance(term, Bonus):
                    value = characteristic_bonus(value)
                total += sign * value
        return total, tuple(faces)

    def _require_no_names(self) -> None:
        if self.names:
            raise DiceExpressionError(
                tr("'{text}' depends on {value}", text=self.text, value=", ".join(self.names)),
                hint=tr("bounds and distributions need an expression without names"),
            )

    def min(self) -> int:
        """The smallest total it can give (without enumerating the outcomes)."""
        self._require_no_names()
        return sum(sign * _bound(term, sign < 0) for sign, term in self.terms)

    def max(self) -> int:
        """The largest total it can give (without enumerating the outcomes)."""
        self._require_no_names()
        return sum(sign * _bound(term, sign > 0) for sign, term in self.terms)

    def distribution(self) -> dict[int, Fraction]:
        """Exact distribution ``total -> probability`` (expressions without names)."""
        return dict(_distribution(self))

    def probability_at_most(self, target: int) -> Fraction:
        """P(total <= target)."""
        return sum((p for total, p in _distribution(self) if total <= target), Fraction(0))


def _bound(term: Term, highest: bool) -> int:
    """The highest (or lowest) value of one term without names."""
    if isinstance(term, int):
        return term
    assert isinstance(term, Dice)
    kept = term.count if term.keep is None else term.keep
    return kept * term.sides if highest else kept


def _kept_sum(faces: tuple[int, ...], dice: Dice) -> int:
    if dice.keep is None:
        return sum(faces)
    ordered = sorted(faces, reverse=dice.keep_highest)
    return sum(ordered[: dice.keep])


@functools.lru_cache(maxsize=256)
def _distribution(expr: DiceExpr) -> tuple[tuple[int, Fraction], ...]:
    expr._require_no_names()
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for sign, term in expr.terms:
        if isinstance(term, int):
            dist = {total + sign * term: p for total, p in dist.items()}
            continue
        assert isinstance(term, Dice)
        one = _dice_distribution(term)
        merged: dict[int, Fraction] = {}
        for total, p in dist.items():
            for value, q in one.items():
                key = total + sign * value
                merged[key] = merged.get(key, Fraction(0)) + p * q
        dist = merged
    return tuple(sorted(dist.items()))


def _dice_distribution(dice: Dice) -> dict[int, Fraction]:
    if dice.keep is None and dice.count * dice.count * dice.sides * dice.sides > 2 * (
        MAX_DISTRIBUTION_STEPS
    ):
        raise DiceExpressionError(
            tr("{dice} has too many outcomes to enumerate exactly", dice=str(dice)),
            hint=tr("exact odds are computed for a few dice of a few sides (such as 4d6 or 2d20)"),
        )
    if dice.keep is None:
        dist = {0: Fraction(1)}
        face = Fraction(1, dice.sides)
        for _ in range(dice.count):
            step: dict[int, Fraction] = {}
            for total, p in dist.items():
                for value in range(1, dice.sides + 1):
                    step[total + value] = step.get(total + value, Fraction(0)) + p * face
            dist = step
        return dist
    if dice.sides**dice.count > limits.MAX_KEEP_OUTCOMES:
        raise DiceExpressionError(
            tr("{dice} has too many outcomes to enumerate exactly", dice=dice),
            hint=tr("keep-highest/lowest distributions are exact only for a few dice"),
        )
    counts: dict[int, int] = {}
    for faces in itertools.product(range(1, dice.sides + 1), repeat=dice.count):
        value = _kept_sum(faces, dice)
        counts[value] = counts.get(value, 0) + 1
    whole = dice.sides**dice.count
    return {value: Fraction(n, whole) for value, n in counts.items()}


# --------------------------------------------------------------------------- parsing


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    """The LALR parser of grammar/dice.lark; its tables are kept in the user's cache folder
    like the book grammar's (``DEDALE_NO_CACHE=1`` disables it): ~50 ms less per process.
    Lark is imported here, not with the module: most expressions never need it
    (:func:`_simple`)."""
    from lark import Lark

    from dedale import grammars

    grammar = grammars.grammar_text("dice.lark")
    return Lark(
        grammar,
        parser="lalr",
        propagate_positions=True,
        cache=grammars.table_cache(grammar, "dice-grammar"),
    )


def _error(text: str, column: int, message: str, hint: str, origin: Span | None) -> Exception:
    if origin is None:
        span = Span("<dice>", 1, column)
    else:
        span = Span(origin.file, origin.line, origin.column + column - 1)
    return DiceExpressionError(
        tr("{message} in dice expression '{text}'", message=message, text=text), span, hint
    )


_HINT = tr("write dice like 2d6, 1d6+6, 2d6+SKILL, 1d20+bonus(DEX)+action or 2d20kh1")


def _term(tree: Tree, text: str, origin: Span | None) -> Term:
    token = tree.children[0]
    return _term_of(tree.data, str(token), token.column or 1, text, origin)


def _term_of(kind: str, token: str, column: int, text: str, origin: Span | None) -> Term:
    """The term of one token of ``kind`` (the grammar's rule: number, name, bonus, dice)
    at ``column`` of ``text``."""
    if max(len(part) for part in re.split(r"\D+", token)) > limits.MAX_DIGITS:
        shown = f"{token[:12]}…"
        message = tr("the number {text} is far too long", text=shown)
        raise _error(text, column, message, _HINT, origin)
    if kind == "number":
        value = int(token)
        if value > limits.DICE_TOTAL.high:
            high = limits.DICE_TOTAL.high
            message = tr("{value} is too large", value=value)
            raise _error(text, column, message, tr("add at most {high}", high=high), origin)
        return value
    if kind == "name":
        return Name(token)
    if kind == "bonus":
        return Bonus(token)
    raw = token.lower()
    count_text, _, rest = raw.partition("d")
    sides_text, _, keep_text = rest.partition("k")
    count = int(count_text) if count_text else 1
    sides = int(sides_text)
    keep = None
    highest = True
    if keep_text:
        highest = keep_text[0] == "h"
        keep = int(keep_text[1:])
    if not 1 <= count <= MAX_DICE:
        message = tr("cannot roll {count} dice", count=count)
        raise _error(text, column, message, tr("roll 1 to {most}", most=MAX_DICE), origin)
    if not 2 <= sides <= MAX_SIDES:
        message = tr("a die cannot have {sides} sides", sides=sides)
        raise _error(text, column, message, tr("use d2..d1000"), origin)
    if keep is not None and not 1 <= keep <= count:
        message = tr("cannot keep {keep} of {count} dice", keep=keep, count=count)
        raise _error(text, column, message, tr("2d20kh1 keeps 1 of 2"), origin)
    return Dice(count, sides, keep, highest)


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str) -> DiceExpr:
    return _parse(text, None)


_SIMPLE = frozenset(" \t0123456789dD+-")
"""The characters :func:`_simple` may take: a sum of dice without keep (``2d6``, ``d6``)
and numbers, ``+`` or ``-`` between them, a ``-`` before the first, spaces and tabs."""
_SIMPLE_TERM = re.compile(r"([-+]?)[ \t]*([0-9]*[dD][0-9]+|[0-9]+)[ \t]*")


def _simple(text: str) -> list[tuple[int, str, str, int]] | None:
    """The signed tokens of a simple expression (see :data:`_SIMPLE`): (sign, kind, token,
    column), as the grammar's lexer cuts them (a dice term before a number: DICE's
    priority), or None for anything else (then Lark parses it: names, ``bonus(...)``,
    ``kh``/``kl``, every mistake and its message)."""
    if not _SIMPLE.issuperset(text):
        return None
    found = []
    position = len(text) - len(text.lstrip(" \t"))
    end = len(text.rstrip(" \t"))
    while position < end:
        match = _SIMPLE_TERM.match(text, position)
        if match is None or match.end() == position:
            return None
        sign = match.group(1)
        if (sign == "+") if not found else (sign == ""):
            return None  # "+" first, or two terms without a sign between them: Lark's error
        token = match.group(2)
        kind = "number" if token.isdigit() else "dice"
        found.append((-1 if sign == "-" else 1, kind, token, match.start(2) + 1))
        position = match.end()
    return found or None


def _parse(text: str, origin: Span | None) -> DiceExpr:
    if not text.strip():
        raise _error(text, 1, tr("empty"), _HINT, origin)
    simple = _simple(text)
    if simple is not None:
        terms = [(sign, _term_of(kind, token, column, text, origin))
                 for sign, kind, token, column in simple]  # fmt: skip
        return _checked(text, terms, origin)
    return _parse_lark(text, origin)


def _parse_lark(text: str, origin: Span | None) -> DiceExpr:
    from lark import Token
    from lark.exceptions import UnexpectedEOF, UnexpectedInput

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as error:
        token = getattr(error, "token", None)
        if isinstance(error, UnexpectedEOF) or getattr(token, "type", "") == "$END":
            column = len(text.rstrip()) + 1
            message = tr("the expression ends too early")
            raise _error(text, column, message, _HINT, origin) from None
        column = getattr(error, "column", 1) or 1
        if column < 1:
            column = len(text) + 1
        found = text[column - 1 : column] if column - 1 < len(text) else None
        message = (
            tr("unexpected end of text")
            if found is None
            else tr("unexpected '{found}'", found=found)
        )
        raise _error(text, column, message, _HINT, origin) from None
    terms: list[tuple[int, Term]] = []
    sign = 1
    for child in tree.children:
        if isinstance(child, Token):
            sign = -1 if child == "-" else 1
            continue
        if child.data == "signed_term":
            first_sign = -1 if len(child.children) == 2 else 1
            terms.append((first_sign, _term(child.children[-1], text, origin)))
        else:
            terms.append((sign, _term(child, text, origin)))
    return _checked(text, terms, origin)


def _checked(text: str, terms: list[tuple[int, Term]], origin: Span | None) -> DiceExpr:
    """The expression of ``terms``, within the bounds of the number of terms and dice."""
    if len(terms) > limits.MAX_DICE_TERMS:
        message = tr("more than {limit} terms", limit=limits.MAX_DICE_TERMS)
        raise _error(text, 1, message, tr("write it with fewer terms, like 3d6+2"), origin)
    rolled = sum(term.count for _, term in terms if isinstance(term, Dice))
    if rolled > MAX_DICE:
        message = tr("{count} dice in all", count=rolled)
        raise _error(text, 1, message, tr("roll 1 to {limit} dice", limit=MAX_DICE), origin)
    return DiceExpr(text.strip(), tuple(terms))


def parse_dice(text: str | int, origin: Span | None = None) -> DiceExpr:
    """Parse a dice expression; errors raise DiceExpressionError at ``origin`` (+column)."""
    text = str(text)
    if origin is None:
        return _parse_cached(text)
    try:
        return _parse_cached(text)
    except DiceExpressionError:
        return _parse(text, origin)  # raises again, with the right span
