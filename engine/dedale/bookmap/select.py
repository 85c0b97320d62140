"""The parts of a map ``dedale graph`` can draw: what a paragraph leads to (``--from N``),
and the neighbourhood of a paragraph (``--around N --depth K``), both ways."""

from __future__ import annotations

from collections import deque

from dedale.bookmap.model import BookMap
from dedale.errors import UsageError
from dedale.i18n import tr


def _check(book_map: BookMap, number: int) -> None:
    if number not in book_map.nodes:
        raise UsageError(
            tr("paragraph {number} is not in the book", number=number),
            hint=tr("give the number of one of the book's paragraphs"),
        )


def from_paragraph(book_map: BookMap, number: int) -> BookMap:
    """The paragraphs reachable from ``number`` (itself included)."""
    _check(book_map, number)
    seen = {number}
    queue = deque(seen)
    successors = _neighbours(book_map, forward=True)
    while queue:
        for target in successors.get(queue.popleft(), ()):
            if target not in seen:
                seen.add(target)
                queue.append(target)
    return book_map.restricted(seen)


def around(book_map: BookMap, number: int, depth: int) -> BookMap:
    """The paragraphs at most ``depth`` steps from ``number``, forwards or backwards."""
    _check(book_map, number)
    if depth < 0:
        raise UsageError(tr("--depth must be 0 or more"))
    forward = _neighbours(book_map, forward=True)
    backward = _neighbours(book_map, forward=False)
    seen = {number}
    frontier = [number]
    for _ in range(min(depth, len(book_map.nodes))):
        reached = []
        for here in frontier:
            for there in (*forward.get(here, ()), *backward.get(here, ())):
                if there not in seen:
                    seen.add(there)
                    reached.append(there)
        frontier = reached
    return book_map.restricted(seen)


def _neighbours(book_map: BookMap, forward: bool) -> dict[int, list[int]]:
    result: dict[int, list[int]] = {}
    for edge in book_map.edges:
        if edge.target is None or edge.target not in book_map.nodes:
            continue
        source, target = (edge.source, edge.target) if forward else (edge.target, edge.source)
        result.setdefault(source, []).append(target)
    return result
