"""I019: where each computed destination may lead (issue 8).

A computed destination is a ``[expression]`` (``-> [key + 20]``, ``> go to [paragraph × 3]``),
a noted paragraph (``[noted camp]``), the paragraph the reader came from (``go back``) or a
hidden-number prompt without answers of its own. The graph has resolved each one to its
possible targets; this check lists them, so that the author sees where the book can jump
(a constant expression such as ``[paragraph × 3]`` is a plain edge and is not listed). An
expression the validator cannot evaluate is not listed: it may lead to any declared hidden
paragraph, and W018 reports it when none is declared.
"""

from __future__ import annotations

from dedale import ast
from dedale.i18n import tr
from dedale.span import Span
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, constant_value, counter_values_of, walk
from dedale.validator.values import possible_values


def computed_destinations(graph: Graph, book: object = None) -> list[Finding]:
    """One I019 finding per computed destination and per hidden-number prompt."""
    found: list[Finding] = []
    counters = counter_values_of(book) if book is not None else {}
    for number in sorted(graph.nodes):
        node = graph.nodes[number]
        targets: dict[tuple[int, int, int], tuple[Span, str, set[int]]] = {}
        own = {id(r) for s in _hidden_prompts(node.paragraph.body) for r in s.answers or ()}
        for edge in node.edges:
            ref = edge.ref
            if id(ref) in own:
                continue  # a prompt's own answers are written beside it (issue 13)
            if edge.kind == "hidden":
                what = tr("the hidden number")
            elif isinstance(ref, ast.ComputedRef) and constant_value(ref.expr, number) is None:
                what = _describe(ref.expr, number)
            else:
                continue
            key = (edge.span.line, edge.span.column, 0 if edge.kind == "hidden" else 1)
            entry = targets.setdefault(key, (edge.span, what, set()))
            if edge.target is not None:
                entry[2].add(edge.target)
        for statement in _hidden_prompts(node.paragraph.body):
            if statement.answers is not None:
                continue
            key = (statement.span.line, statement.span.column, 0)
            if key in targets:
                fallback = [e.target for e in node.edges if e.span == statement.span]
                targets[key][2].update(t for t in fallback if t is not None)
        missing = _missing_values(node, counters, book)
        for key in sorted(targets):
            span, what, values = targets[key]
            shown = ", ".join(str(v) for v in sorted(values)) or tr(
                "nowhere the validator can tell"
            )
            absent = missing.get((span.line, span.column), ())
            if absent:
                shown = tr(
                    "{shown} ({absent} would name no paragraph)",
                    shown=shown,
                    absent=", ".join(map(str, absent)),
                )
            found.append(
                finding(
                    "I019",
                    tr("{what} may lead to: {shown}", what=what, shown=shown),
                    span,
                    paragraph=number,
                    targets=sorted(values),
                )
            )
    return found


def _missing_values(node, counters, book) -> dict[tuple[int, int], list[int]]:
    """Values of counter-valued destinations that name no paragraph, by position."""
    missing: dict[tuple[int, int], list[int]] = {}
    if not counters:
        return missing
    paragraphs = getattr(book, "paragraphs", {}) or {}
    for edge in node.edges:
        ref = edge.ref
        if not isinstance(ref, ast.ComputedRef) or (edge.span.line, edge.span.column) in missing:
            continue
        values = possible_values(ref.expr, node.number, book, counters) or set()
        absent = sorted(v for v in values if v not in paragraphs)
        if absent:
            missing[(edge.span.line, edge.span.column)] = absent
    return missing


def _hidden_prompts(body: tuple[ast.Statement, ...]) -> list[ast.HiddenNumber]:
    return [s for s in walk(body) if isinstance(s, ast.HiddenNumber)]


def _describe(expr: ast.Expr, here: int) -> str:
    if isinstance(expr, ast.NotedParagraph):
        return tr("the paragraph noted as '{name}'", name=expr.name)
    if isinstance(expr, ast.PreviousParagraph):
        return tr("going back")
    return tr("a computed destination")
