"""The rules core's dice tests against any value and its comparison of two rolls (issue 13
§6), with scripted dice: outcomes, margins, the dice's own total, and the events shown."""

from __future__ import annotations

import pytest
from dedale import events
from dedale.rules import AlwaysNo, ScriptedDice, collect, drive, parse_dice
from dedale.rules.checks import run_dice_test, run_roll_compare


@pytest.mark.parametrize(
    ("faces", "bonus", "outcome", "margin"),
    [([3, 4], 0, "success", 1), ([4, 4], 0, "success", 0), ([3, 4], 2, "failure", 1)],
)
def test_dice_against_a_value(faces, bonus, outcome, margin):
    dice = parse_dice("2d6")
    result = drive(run_dice_test(ScriptedDice(faces), dice, "STAMINA", 8, bonus), AlwaysNo())
    assert (result.outcome, result.margin) == (outcome, margin)
    assert result.dice_total == sum(faces)  # ROLL: the dice, not the modifier


@pytest.mark.parametrize(
    ("faces", "bonus", "outcome"),
    [([5, 2], 0, "higher"), ([2, 5], 0, "lower"), ([2, 5], 3, "equal"), ([4, 4], 0, "equal")],
)
def test_two_rolls_compared(faces, bonus, outcome):
    one = parse_dice("1d6")
    result = drive(run_roll_compare(ScriptedDice(faces), one, one, bonus), AlwaysNo())
    assert result.outcome == outcome
    assert (result.roll, result.target, result.dice_total) == (faces[0] + bonus, faces[1], faces[0])


def test_a_comparison_shows_both_rolls_then_the_result():
    result, items = collect(
        run_roll_compare(ScriptedDice([6, 1, 2, 2]), parse_dice("1d6+1"), parse_dice("2d6"), -1),
        AlwaysNo(),
    )
    rolled = [i for i in items if isinstance(i, events.DiceRolled)]
    assert [(r.purpose, r.faces, r.total) for r in rolled] == [
        ("first_roll", (6,), 7), ("second_roll", (1, 2), 3),
    ]  # fmt: skip
    (shown,) = [i for i in items if isinstance(i, events.MessageShown)]
    assert (shown.key, dict(shown.params)) == ("rolls_higher", {"first": 6, "second": 3})
    assert not [i for i in items if isinstance(i, events.TestResolved)]
    assert result.margin == 3
