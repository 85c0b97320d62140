"""Malformed inputs: every error with its exact message and position (snapshots)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.errors import BookLoadError
from dedale.language import load_book

CASES = Path(__file__).parent / "cases" / "invalid"
INVALID = sorted(CASES.glob("*.dd"))


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_invalid_case_reports_every_error(path, snapshot, monkeypatch):
    monkeypatch.chdir(CASES)
    with pytest.raises(BookLoadError) as caught:
        load_book(path.name)
    errors = caught.value.errors
    assert errors, "a BookLoadError always lists at least one error"
    for error in errors:
        assert error.span is not None and error.span.line >= 1 and error.span.column >= 1
        assert "internal" not in error.message
    assert caught.value.render() == snapshot
