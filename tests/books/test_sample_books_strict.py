"""The sample books pass ``dedale validate --strict``: no error and no warning, with a
modest number of random playthroughs (CI runs pytest, so this is where the check lives)."""

from __future__ import annotations

import pytest
from dedale.validator import validate_path
from scripted_play import BOOKS

SAMPLE_BOOKS = ("etoiles-mortes", "greymane", "gull-rock", "reliquaire", "tutorial")


@pytest.mark.parametrize("name", SAMPLE_BOOKS)
def test_strict_validation(name: str) -> None:
    report = validate_path(BOOKS / name, runs=200, seed=0)
    problems = [f for f in report.findings if f.severity in ("error", "warning")]
    assert problems == []
    assert report.playthroughs is not None
