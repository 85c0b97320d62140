"""The seeded random source: reproducible, logged, forceable, scriptable."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.errors import GameError
from dedale.rules import DiceExhaustedError, RandomSource, ScriptedDice


def test_same_seed_same_faces_and_log():
    a, b = RandomSource(42), RandomSource(42)
    faces = [a.roll(6) for _ in range(50)] + list(a.roll_dice(3, 20)) + list(a.roll2(6))
    assert faces == [b.roll(6) for _ in range(50)] + list(b.roll_dice(3, 20)) + list(b.roll2(6))
    assert a.log == faces
    assert all(1 <= f <= 20 for f in faces)


def test_force_queues_the_next_faces_then_resumes():
    rng = RandomSource(1)
    rng.force([6, 6, 1])
    assert rng.roll2(6) == (6, 6)
    assert rng.roll(6) == 1
    assert rng.log == [6, 6, 1]
    rng.roll(6)
    assert len(rng.log) == 4


def test_forced_face_must_fit_the_die():
    rng = RandomSource(1)
    rng.force([7])
    with pytest.raises(GameError, match="d6"):
        rng.roll(6)


def test_scripted_dice_returns_exactly_and_then_fails():
    dice = ScriptedDice([3, 4, 5])
    assert dice.roll_dice(2, 6) == (3, 4)
    assert dice.remaining == 1
    assert dice.roll(6) == 5
    with pytest.raises(DiceExhaustedError, match="ran out after 3 faces"):
        dice.roll(6)


def test_no_global_random_module_use():
    import dedale.rules.random_source as module

    source = Path(module.__file__).read_text(encoding="utf-8")
    assert "random.random(" not in source and "random.randint(" not in source
