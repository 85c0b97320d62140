"""Dice that enumerate: the faces come from a prefix of tokens, and past it the game stops
and asks the solver to branch (:class:`NeedChance`)."""

from __future__ import annotations

import math
from collections import Counter, deque
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

from dedale.rules.random_source import RandomSource
from dedale.solve.exactness import EXACT, ratio


class NeedChance(BaseException):  # noqa: N818 - a control signal, not an error
    """Raised inside the game when the next random outcome is not in the prefix:
    ``outcomes`` lists ``(probability, token)`` pairs. (A BaseException, so that no
    ``except GameError`` of the interpreter swallows it.)"""

    def __init__(self, outcomes: tuple[tuple[float, Any], ...]) -> None:
        super().__init__()
        self.outcomes = outcomes


class TokenStream:
    """The tokens of one replay, read in order by the dice, the fights and the prompts."""

    __slots__ = ("tokens", "at")

    def __init__(self, tokens: Sequence[Any]) -> None:
        self.tokens = tokens
        self.at = 0

    def take(self, kind: str, outcomes) -> Any:
        """The next token (of ``kind``), or NeedChance with ``outcomes()`` past the prefix."""
        if self.at < len(self.tokens):
            token = self.tokens[self.at]
            self.at += 1
            if token[0] != kind:  # the replay diverged: a bug, never silent
                raise RuntimeError(f"solver replay expected a {kind!r} token, got {token!r}")
            return token[1]
        raise NeedChance(outcomes())

    def answer(self) -> Any:
        """The next token if it answers a prompt (None when the prefix is used up)."""
        if self.at < len(self.tokens):
            token = self.tokens[self.at]
            self.at += 1
            if token[0] != "a":
                raise RuntimeError(f"solver replay expected an answer, got {token!r}")
            return token[1]
        return None


class EnumeratedDice(RandomSource):
    """A RandomSource whose faces are the ``d`` tokens of a stream (each face 1/sides)."""

    __slots__ = ("stream",)

    def __init__(self, stream: TokenStream) -> None:  # no seeded generator: none is used
        self.seed = 0
        self.log = []
        self._random = _no_random
        self._forced = deque()
        self.stream = stream

    def _face(self, sides: int) -> int:
        def outcomes() -> tuple[tuple[float, Any], ...]:
            share = ratio(1, sides)  # a Fraction in an exact solve (--exact)
            return tuple((share, ("d", face)) for face in range(1, sides + 1))

        face = self.stream.take("d", outcomes)
        self.log.append(face)
        return face

    def roll(self, sides: int) -> int:
        return self._face(sides)

    def roll_dice(self, n: int, sides: int) -> tuple[int, ...]:
        """``n`` dice at once, enumerated as sorted faces (each multiset once, weighted by
        its orderings): no rule reads the order of one throw's faces, only their values."""
        if n <= 1 or _multisets(n, sides) > MAX_THROWS:
            return tuple(self._face(sides) for _ in range(n))
        faces = self.stream.take("D", lambda: _throws(n, sides, EXACT.get()))
        self.log.extend(faces)
        return faces

    def roll2(self, sides: int) -> tuple[int, int]:
        return self._face(sides), self._face(sides)

    def force(self, faces) -> None:  # playtest tools are no part of a solved game
        raise RuntimeError("the solver's dice cannot be forced")


MAX_THROWS = 5_000
"""A throw of several dice is enumerated whole up to this many distinct outcomes."""


def _no_random() -> float:
    raise RuntimeError("the solver's dice draw no random number")


def _multisets(n: int, sides: int) -> int:
    return math.comb(n + sides - 1, n) if sides > 0 else 0


@cache
def _throws(n: int, sides: int, exact: bool = False) -> tuple[tuple[float, Any], ...]:
    """Every sorted throw of ``n`` dice of ``sides`` faces with its probability (a
    Fraction when ``exact``)."""
    total = sides**n
    found = []
    for faces in combinations_with_replacement(range(1, sides + 1), n):
        orders = math.factorial(n)
        for count in Counter(faces).values():
            orders //= math.factorial(count)
        found.append((ratio(orders, total, exact), ("D", faces)))
    return tuple(found)


class OutcomeDice(EnumeratedDice):
    """Enumerated dice that throw a roll-under test (``rules.checks.run_test``) as its two
    outcomes only, success and failure, each with its exact probability: for a book in
    which no rule reads a test's margin or its roll (``ROLL``), that is all the test
    decides. (The roll returned is one total of that outcome; faces are not shown.)"""

    __slots__ = ()

    def roll_under(self, expr, target: int, test: str = "") -> tuple[int, tuple[int, ...]]:
        """The test ``test`` (its id in the ruleset: the walkthrough names it) thrown as a
        ``U`` token whose value is ``(passed, test)``."""
        if expr.names:
            return expr.roll(self)
        low, high, success = _under(expr, target, EXACT.get())
        if success >= 1:
            return low, ()
        if success <= 0:
            return high, ()
        passed, _ = self.stream.take(
            "U", lambda: ((success, ("U", (True, test))), (1 - success, ("U", (False, test))))
        )
        return (low if passed else high), ()


@cache
def _under(expr, target: int, exact: bool = False) -> tuple[int, int, float]:
    """The lowest and highest totals of ``expr`` and the chance of a total <= target (a
    Fraction when ``exact``)."""
    totals = expr.distribution()
    success = Fraction(expr.probability_at_most(target))
    return min(totals), max(totals), success if exact else float(success)


def reads_test_rolls(book) -> bool:
    """Whether a rule of the book reads a test's margin or its roll (``ROLL``)."""
    from dedale import ast

    stack: list = list(book.paragraphs.values())
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is ast.LastRoll or (kind is ast.Branch and node.margin is not None):
            return True
        if isinstance(node, tuple | list):
            stack.extend(node)
        elif hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, name) for name in node.__dataclass_fields__)
    return False
