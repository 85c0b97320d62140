"""The path-aware checks of issue 14 (values out of range, resources along the paths,
soft-locks, books no game wins): one fixture book per check in tests/books_extra/validator,
each with exactly the defect it must find, at its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.validator import validate_path

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"

# fixture -> (code, line of the defect, random games to play)
EXPECTED: dict[str, tuple[str, int, int]] = {
    "E002-d20-difficulty-out-of-range": ("E002", 8, 0),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_finds_exactly_its_defect_at_its_line(name):
    code, line, runs = EXPECTED[name]
    report = validate_path(BOOKS / f"{name}.dd", runs=runs, seed=0)
    assert [(item.code, item.span.line) for item in report.findings] == [(code, line)]
