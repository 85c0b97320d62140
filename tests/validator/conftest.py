"""Fixtures of the validator tests: the fixture books, one folder per check."""

from __future__ import annotations

from pathlib import Path

import pytest

BOOKS = Path(__file__).resolve().parent / "books"


@pytest.fixture
def books(monkeypatch) -> Path:
    """The fixture books' folder, made the current folder (paths in reports are relative)."""
    monkeypatch.chdir(BOOKS)
    return BOOKS
