"""``graph.walk`` remembers the walk of a body (issue 14.11: about twenty checks walk every
paragraph): the same statements, in the same order, as the plain walk, on every paragraph
of the sample books; other iterables are walked as they come; the memo is bounded."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import graph
from dedale.validator.graph import _walk, walk

ROOT = Path(__file__).resolve().parents[2]
BOOKS = sorted(p for p in (ROOT / "books").iterdir() if (p / "book.yaml").exists())


@pytest.mark.parametrize("folder", BOOKS, ids=lambda p: p.name)
def test_the_remembered_walk_is_the_walk(folder):
    book = load_book(folder)
    for paragraph in book.paragraphs.values():
        plain = list(_walk(paragraph.body))
        assert list(walk(paragraph.body)) == plain
        again = walk(paragraph.body)
        assert list(again) == plain  # the remembered one
        assert graph._WALKED[id(paragraph.body)][0] is paragraph.body
        assert list(walk(s for s in paragraph.body)) == plain  # a generator: walked as is


def test_the_memo_is_bounded(monkeypatch):
    book = load_book(BOOKS[0])
    monkeypatch.setattr(graph, "MAX_WALKED", 3)
    graph._WALKED.clear()
    for paragraph in book.paragraphs.values():
        list(walk(paragraph.body))
        assert len(graph._WALKED) <= 3
