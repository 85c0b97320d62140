"""The items and codewords each paragraph touches (validator/state_atoms.py, issue 14.11):
the walk with a stack and per-type lookups gives the nodes and atoms of the nested
generators and ``isinstance`` chain it replaced (kept here as the reference), on every
paragraph of the sample books, the validator fixtures and the extra books."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from dedale import ast
from dedale.errors import DedaleError
from dedale.language import load_book
from dedale.rules.ruleset import fold
from dedale.validator import state_atoms
from dedale.validator.book_state_checks import flag_key

ROOT = Path(__file__).resolve().parents[2]
EXTRA = ROOT / "tests" / "books_extra"
BOOKS = (
    sorted(p for p in (ROOT / "books").iterdir() if p.is_dir())
    + sorted(p.parent for p in EXTRA.rglob("book.yaml"))  # folder books
    + sorted(p for p in EXTRA.rglob("*.dd") if not (p.parent / "book.yaml").exists())
)


def _reference_nodes(value: object, depth: int = 0) -> Iterator[object]:
    """The walk as it was: nested generators, every field but ``span`` looked into."""
    if depth > 200:
        return
    if isinstance(value, tuple | list):
        for item in value:
            if not isinstance(item, ast.Prose):
                yield from _reference_nodes(item, depth + 1)
    elif type(value).__module__ == ast.__name__ and dataclasses.is_dataclass(value):
        yield value
        for spec in dataclasses.fields(value):
            if spec.name == "span":
                continue
            child = getattr(value, spec.name)
            if isinstance(child, tuple | list) or type(child).__module__ == ast.__name__:
                yield from _reference_nodes(child, depth + 1)


def _reference_atoms(body, items, codewords) -> state_atoms.ParagraphAtoms:
    reads: tuple[set, set] = (set(), set())
    touched: tuple[set, set] = (set(), set())
    reads_class = False
    for node in _reference_nodes(body):
        if isinstance(node, ast.HasItem | ast.Cost | ast.GainItem | ast.LoseItem):
            if getattr(node, "item", None) is None:
                continue
            name = fold(node.item)
            if name in items:
                touched[0].add(name)
                if isinstance(node, ast.HasItem | ast.Cost):
                    reads[0].add(name)
        elif isinstance(node, ast.HasCodeword | ast.SetCodeword | ast.ClearCodeword):
            name = fold(node.codeword)
            if name in codewords:
                touched[1].add(name)
                if isinstance(node, ast.HasCodeword):
                    reads[1].add(name)
        elif isinstance(node, ast.HasFlag | ast.SetFlag | ast.ClearFlag):
            name = flag_key(node.name)
            if name in codewords:
                touched[1].add(name)
                if isinstance(node, ast.HasFlag):
                    reads[1].add(name)
        elif isinstance(node, ast.HasClass):
            reads_class = True
    return state_atoms.ParagraphAtoms(
        (frozenset(reads[0]), frozenset(reads[1])),
        (frozenset(touched[0]), frozenset(touched[1])),
        reads_class,
    )


def _names(book) -> tuple[set[str], set[str]]:
    """Every item, codeword and flag name the book's nodes mention (all tracked)."""
    items: set[str] = set()
    codewords: set[str] = set()
    for paragraph in book.paragraphs.values():
        for node in _reference_nodes(paragraph.body):
            item = getattr(node, "item", None)
            if isinstance(item, str):
                items.add(fold(item))
            if isinstance(getattr(node, "codeword", None), str):
                codewords.add(fold(node.codeword))
            if isinstance(node, ast.HasFlag | ast.SetFlag | ast.ClearFlag):
                codewords.add(flag_key(node.name))
    return items, codewords


@pytest.mark.parametrize("path", BOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_walk_and_atoms_are_the_reference_ones(path):
    try:
        book = load_book(path)
    except DedaleError:
        pytest.skip("a fixture that does not load")
    items, codewords = _names(book)
    some_items = {name for index, name in enumerate(sorted(items)) if index % 2 == 0}
    compared = 0
    for paragraph in book.paragraphs.values():
        body = paragraph.body
        expected = list(_reference_nodes(body))
        found = state_atoms._nodes(body)
        assert sorted(map(id, found)) == sorted(map(id, expected))
        for tracked in ((items, codewords), (some_items, set())):
            assert state_atoms.paragraph_atoms(body, *tracked) == _reference_atoms(body, *tracked)
        compared += len(expected)
    assert compared or not book.paragraphs


def test_the_sample_books_touch_atoms():
    """The comparison above is not empty: the sample books read and change items and
    codewords, and test a class."""
    seen = [False, False, False]
    for path in BOOKS[:7]:
        book = load_book(path)
        items, codewords = _names(book)
        for paragraph in book.paragraphs.values():
            found = state_atoms.paragraph_atoms(paragraph.body, items, codewords)
            seen[0] |= bool(found.reads[0])
            seen[1] |= bool(found.touched[1])
            seen[2] |= found.reads_class
    assert seen[:2] == [True, True]
