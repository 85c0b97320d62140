"""The loader's AST walk skips the fields whose annotation says they hold no node (text,
numbers, spans): it visits exactly the nodes a walk of every field visits, in the same
order, on every sample book and fixture."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from dedale.errors import DedaleError
from dedale.language import load_book
from dedale.language.checks import walk
from dedale.span import Span

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = sorted(
    path.parent
    for base in ("books", "tests/books_extra")
    for path in (ROOT / base).rglob("book.yaml")
)


def _every_field(node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        for field in fields(current):
            if field.name == "span":
                continue
            value = getattr(current, field.name)
            if isinstance(value, tuple):
                stack.extend(item for item in value if hasattr(item, "__dataclass_fields__"))
            elif hasattr(value, "__dataclass_fields__") and not isinstance(value, Span):
                stack.append(value)


@pytest.mark.parametrize("folder", FOLDERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_walk_visits_every_node(folder):
    try:
        book = load_book(folder)
    except DedaleError:
        pytest.skip("a fixture that does not load")
    for paragraph in book.paragraphs.values():
        for statement in paragraph.body:
            assert [id(n) for n in walk(statement)] == [id(n) for n in _every_field(statement)]
