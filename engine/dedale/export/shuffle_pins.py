"""Which paragraphs keep their numbers when the export shuffles a book, and why.

A number is pinned when the reader must find it by its number, not by a link the export can
rewrite: the start and the victories, the author's ``pinned:`` list, the answers of a
hidden-number puzzle and every paragraph declared hidden, the paragraph whose own number a
computed destination uses at play time (``[paragraph + gold]``; a constant one such as
``[paragraph + 5]`` is printed as the number it gives, and rewritten), every paragraph a
computed destination may reach at play time (the validator's possible values), the numbers
noted on items, and every number the prose or a choice's text names outside a marked
reference (``{§ 12}``, which the export rewrites).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping

from dedale import ast
from dedale.validator.graph import Edge, Graph, build_graph, constant_value

MARKED_REFERENCE = re.compile(r"\{[ \t]*§[^{}\n]{0,64}\}")
"""A paragraph number the author marked in prose (``{§ 12}``): rewritten, never pinned."""
_NUMBER = re.compile(r"(?<![\w.,])\d{1,6}(?!\w|[.,]\d)")
_MAX_NODES = 2_000_000
"""A bound on the AST nodes visited (a book is far smaller; a hostile one stops here)."""


def nodes(root: object) -> Iterator[object]:
    """Every AST dataclass reachable from ``root`` (depth first, bounded)."""
    stack: list[object] = [root]
    seen = 0
    while stack and seen < _MAX_NODES:
        item = stack.pop()
        seen += 1
        if isinstance(item, tuple | list):
            stack.extend(reversed(item))
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            yield item
            stack.extend(reversed([getattr(item, f.name) for f in dataclasses.fields(item)]))


def prose_numbers(text: str) -> set[int]:
    """The numbers written in ``text`` outside marked references."""
    return {int(match) for match in _NUMBER.findall(MARKED_REFERENCE.sub(" ", text))}


def _computed(edge: Edge) -> bool:
    """The edge's destination is computed at play time (not a constant the export
    rewrites, nor a noted or previous paragraph, which follow the paragraph itself)."""
    ref = edge.ref
    if not isinstance(ref, ast.ComputedRef):
        return False
    if isinstance(ref.expr, ast.NotedParagraph | ast.PreviousParagraph):
        return False
    return constant_value(ref.expr, edge.source) is None


def default_pins(book: object, graph: Graph | None = None) -> dict[int, str]:
    """Every paragraph the export must not renumber, with the reason (one word: start,
    victory, author, hidden, computed, item, prose)."""
    paragraphs: Mapping[int, ast.Paragraph] = getattr(book, "paragraphs", {}) or {}
    meta = getattr(book, "meta", None)
    graph = graph or build_graph(book)
    pins: dict[int, str] = {}

    def pin(number: int | None, why: str) -> None:
        if isinstance(number, int) and number in paragraphs:
            pins.setdefault(number, why)

    pin(getattr(book, "start", None), "start")
    for number in getattr(meta, "pinned", ()) or ():
        pin(number, "author")
    listed = (getattr(meta, "validator", None) or {}).get("hidden", ()) or ()
    for number in listed if isinstance(listed, list | tuple) else ():
        pin(number if isinstance(number, int) else None, "hidden")
    for item in getattr(meta, "items", ()) or ():
        for effect in nodes(item):
            if isinstance(effect, ast.ItemEffect):
                pin(effect.number, "item")
    for number, paragraph in paragraphs.items():
        for item in nodes(paragraph.body):
            if isinstance(item, ast.Ending) and item.kind == "victory":
                pin(number, "victory")
            elif isinstance(item, ast.HiddenParagraph):
                pin(number, "hidden")
            elif isinstance(item, ast.HiddenNumber):
                for ref in item.answers or ():
                    pin(_resolved(book, ref), "hidden")
            elif isinstance(item, ast.ComputedRef) and constant_value(item.expr, number) is None:
                if any(isinstance(x, ast.CurrentParagraph) for x in nodes(item.expr)):
                    pin(number, "computed")  # the reader computes from this number
            elif isinstance(item, ast.ItemEffect):
                pin(item.number, "item")
            elif isinstance(item, ast.Prose | ast.Choice):
                for value in prose_numbers(item.text):
                    pin(value, "prose")
    for node in graph.nodes.values():
        for edge in node.edges:
            if edge.kind == "hidden":
                pin(edge.target, "hidden")
            elif _computed(edge):
                pin(edge.target, "computed")
    return pins


def _resolved(book: object, ref: ast.ParagraphRef) -> int | None:
    resolve = getattr(book, "resolve", None)
    return resolve(ref) if callable(resolve) else ref.number
