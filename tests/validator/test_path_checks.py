"""The path-aware checks of issue 14 (values out of range, resources along the paths,
soft-locks, books no game wins): one fixture book per check in tests/books_extra/validator,
each with exactly the defect it must find, at its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.validator import validate_path

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"

# fixture -> (the findings it must give: code and line, random games to play)
EXPECTED: dict[str, tuple[list[tuple[str, int]], int]] = {
    "E002-d20-difficulty-out-of-range": ([("E002", 8)], 0),
    "W080-unaffordable-cost": ([("W080", 13)], 100),
    "W081-stat-condition-never-met": ([("W081", 8)], 100),
    "W082-gain-does-nothing": ([("W082", 8)], 100),
    "W083-no-meal-left": ([("W083", 13)], 100),
    "W084-loss-kills-every-hero": ([("W084", 8)], 0),
    "W085-never-won": ([("W085", 6), ("W031", 13), ("W080", 19)], 0),
    "W085-no-game-wins": ([("W085", 6), ("I042", 22)], 100),
    "W086-lost-before-needed": ([("W086", 13)], 100),
    "W087-lost-never-held": ([("I025", 8), ("W087", 13)], 100),  # I025: the same typo
    "clean-resources": ([], 200),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_finds_exactly_its_defect_at_its_line(name):
    expected, runs = EXPECTED[name]
    report = validate_path(BOOKS / f"{name}.dd", runs=runs, seed=0)
    assert [(item.code, item.span.line) for item in report.findings] == expected
