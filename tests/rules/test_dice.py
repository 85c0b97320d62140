"""Dice expressions: grammar, rolls, exact distributions, errors with positions."""

from __future__ import annotations

from fractions import Fraction

import pytest
from dedale.errors import DiceExpressionError
from dedale.rules import ScriptedDice, parse_dice
from dedale.span import Span


@pytest.mark.parametrize(
    ("text", "faces", "values", "total"),
    [
        ("2d6", [3, 4], {}, 7),
        ("1d6+6", [5], {}, 11),
        ("d6", [2], {}, 2),
        ("2d6+SKILL", [1, 2], {"SKILL": 10}, 13),
        ("1d20+bonus(DEX)+action", [12], {"DEX": 15, "action": 3}, 12 + 2 + 3),
        ("2d20kh1", [4, 17], {}, 17),
        ("2d20kl1", [4, 17], {}, 4),
        ("-1+2d6", [6, 6], {}, 11),
        ("2d6 - 2", [1, 1], {}, 0),
    ],
)
def test_roll(text, faces, values, total):
    expr = parse_dice(text)
    assert expr.roll(ScriptedDice(faces), values.__getitem__) == (total, tuple(faces))


def test_bounds_and_distribution():
    expr = parse_dice("2d6+12")
    assert (expr.min(), expr.max()) == (14, 24)
    dist = expr.distribution()
    assert dist[19] == Fraction(6, 36) and sum(dist.values()) == 1
    assert parse_dice("2d20kh1").distribution()[20] == Fraction(39, 400)
    assert parse_dice("2d6").probability_at_most(9) == Fraction(30, 36)


def test_names_have_no_bounds():
    with pytest.raises(DiceExpressionError, match="depends on SKILL"):
        parse_dice("2d6+SKILL").max()


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("2x6", 2, "unexpected 'x'"),
        ("d1", 1, "cannot have 1 sides"),
        ("3d6kh4", 1, "cannot keep 4 of 3"),
        ("1d6++2", 5, "unexpected '+'"),
    ],
)
def test_errors_carry_position_and_hint(text, column, message):
    with pytest.raises(DiceExpressionError) as info:
        parse_dice(text, origin=Span("book/12.dd", 4, 10))
    assert message in info.value.message
    assert info.value.span == Span("book/12.dd", 4, 10 + column - 1)
    assert info.value.hint
