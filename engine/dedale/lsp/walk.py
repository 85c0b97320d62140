"""A bounded walk over the AST's frozen dataclasses (every node, in source order)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

MAX_DEPTH = 64
MAX_NODES = 200_000


def nodes(root: object) -> Iterator[object]:
    """Every dataclass node under ``root`` (itself included), depth-first, bounded."""
    stack: list[tuple[object, int]] = [(root, 0)]
    seen = 0
    while stack and seen < MAX_NODES:
        value, depth = stack.pop()
        if isinstance(value, tuple | list):
            if depth < MAX_DEPTH:
                stack.extend((child, depth + 1) for child in reversed(value))
            continue
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            continue
        seen += 1
        yield value
        if depth < MAX_DEPTH:
            children = [getattr(value, field.name, None) for field in dataclasses.fields(value)]
            stack.extend((child, depth + 1) for child in reversed(children))
