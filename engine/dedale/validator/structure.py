"""Structure checks: missing and duplicate paragraphs, numbering gaps, reachability, dead
ends, loops with no way out, no reachable victory, hidden paragraphs without a clue."""

from __future__ import annotations

import re
from collections.abc import Iterator

from dedale import ast
from dedale.errors import (
    BookMetadataError,
    BookStructureError,
    BookSyntaxError,
    DedaleError,
    RulesetError,
)
from dedale.validator.findings import CHECKS, Finding, finding
from dedale.validator.graph import Graph, walk

_LOAD_CODES: tuple[tuple[type[DedaleError], str], ...] = (
    (BookSyntaxError, "E001"),
    (BookStructureError, "E002"),
    (BookMetadataError, "E003"),
    (RulesetError, "E004"),
)


def load_error_findings(errors: list[DedaleError]) -> list[Finding]:
    """Each loader error as a finding (its own code, span and hint)."""
    found = []
    for error in errors:
        code = getattr(error, "code", None)
        if code not in CHECKS:
            code = next((c for kind, c in _LOAD_CODES if isinstance(error, kind)), "E005")
        if code == "E002" and error.message.endswith("is defined twice"):
            code = "E011"  # the loader's duplicate-number error
        found.append(finding(code, error.message, error.span, hint=error.hint))
    return found


def _header(paragraph: ast.Paragraph):
    """The span of a paragraph's header line (its first line)."""
    span = paragraph.span
    return type(span)(span.file, span.line, span.column)


def missing_targets(graph: Graph) -> Iterator[Finding]:
    """E010: a destination naming no paragraph."""
    for node in graph.nodes.values():
        for edge in node.edges:
            if edge.target is None or edge.target not in graph.nodes:
                name = (
                    edge.ref.label
                    if isinstance(edge.ref, ast.ParagraphRef) and edge.target is None
                    else edge.target
                )
                yield finding(
                    "E010",
                    f"{edge.kind} leads to paragraph {name}, which does not exist",
                    edge.ref.span,
                    paragraph=node.number,
                    hint="write that paragraph, or fix the number",
                )


def numbering_gaps(graph: Graph) -> Iterator[Finding]:
    """W012: runs of missing numbers between the lowest and highest paragraph."""
    numbers = sorted(graph.nodes)
    for before, after in zip(numbers, numbers[1:], strict=False):
        if after - before > 1:
            missing = str(before + 1) if after - before == 2 else f"{before + 1}-{after - 1}"
            yield finding(
                "W012",
                f"no paragraph numbered {missing} (between {before} and {after})",
                _header(graph.nodes[after].paragraph),
                paragraph=after,
                hint="printed books number every paragraph; silence W012 if this is deliberate",
            )


def computed_clues(graph: Graph, book: object) -> set[int]:
    """Paragraphs a clue leads to: mentioned as a number in another paragraph's prose."""
    numbers = set(graph.nodes)
    clued: set[int] = set()
    word = re.compile(r"\b(\d+)\b")
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.Prose):
                for match in word.finditer(statement.text):
                    value = int(match.group(1))
                    if value in numbers and value != node.number:
                        clued.add(value)
    return clued


def reachability(graph: Graph, hidden: tuple[int, ...], book: object) -> Iterator[Finding]:
    """W013, E014, E015, E016, W017, W018."""
    if graph.start is None or graph.start not in graph.nodes:
        return  # the loader reports a missing start
    has_computed = any(node.computed for node in graph.nodes.values())
    declared = [number for number in hidden if number in graph.nodes]
    for number in hidden:
        if number not in graph.nodes:
            yield finding(
                "E010",
                f"validator.hidden declares paragraph {number}, which does not exist",
                None,
                paragraph=number,
            )
    clued = computed_clues(graph, book) if declared else set()
    for number in declared:
        if number not in clued and not has_computed:
            yield finding(
                "W017",
                f"paragraph {number} is declared hidden but no clue leads to it",
                _header(graph.nodes[number].paragraph),
                paragraph=number,
                hint="mention its number in the text (or a computed destination), "
                "or remove it from validator.hidden",
            )
    for node in graph.nodes.values():
        for ref in node.computed:
            if not declared:
                yield finding(
                    "W018",
                    "computed destination: the validator cannot tell where it leads",
                    ref.span,
                    paragraph=node.number,
                    hint="list its possible destinations in book.yaml under validator.hidden",
                )
    reachable = graph.reachable_from([graph.start, *declared])
    for number in sorted(set(graph.nodes) - reachable):
        yield finding(
            "W013",
            f"paragraph {number} cannot be reached from the start ({graph.start})",
            _header(graph.nodes[number].paragraph),
            paragraph=number,
            hint="add a choice leading here, or declare it in validator.hidden",
        )
    dead_ends = set()
    for number in sorted(graph.nodes):
        node = graph.nodes[number]
        if node.falls_through and not node.has_choices and not node.computed:
            dead_ends.add(number)
            what = (
                "has no way on and is not an ending"
                if not node.edges and not node.endings
                else "can end with no choice to make"
            )
            yield finding(
                "E014",
                f"dead end: paragraph {number} {what}",
                _header(node.paragraph),
                paragraph=number,
                hint="add a choice, a 'go to', or 'death'/'victory'",
            )
    # loops with no way out: reachable paragraphs from which no exit can be reached
    # (endings, dead ends and missing targets already reported count as exits)
    exits = {n for n, node in graph.nodes.items() if node.is_exit or node.computed} | dead_ends
    exits |= {
        n
        for n, node in graph.nodes.items()
        if any(e.target is None or e.target not in graph.nodes for e in node.edges)
    }
    escaping = graph.reaching(exits)
    trapped = reachable - escaping
    for number in sorted(trapped):
        entered_from_outside = number == graph.start or any(
            edge.source not in trapped for edge in graph.predecessors.get(number, ())
        )
        if entered_from_outside:
            loop = sorted(graph.reachable_from([number]))
            shown = ", ".join(map(str, loop[:8])) + (", ..." if len(loop) > 8 else "")
            yield finding(
                "E015",
                f"once at paragraph {number} the reader can never reach an ending "
                f"(trapped among {shown})",
                _header(graph.nodes[number].paragraph),
                paragraph=number,
                hint="give the loop a way out",
            )
    victories = [n for n, node in graph.nodes.items() if "victory" in node.endings]
    unknown_ways = any(graph.nodes[n].computed for n in reachable) and not declared
    if not victories or (not reachable & graph.reaching(victories) and not unknown_ways):
        start = graph.nodes[graph.start].paragraph
        yield finding(
            "E016",
            "no victory can be reached from the start"
            if victories
            else "the book has no victory paragraph",
            _header(start),
            paragraph=graph.start,
            hint="end the winning paragraph with '> victory' ('> victoire')",
        )


def check_structure(graph: Graph, book: object, hidden: tuple[int, ...]) -> list[Finding]:
    """Every structure finding of a loaded book."""
    found = list(missing_targets(graph))
    found += numbering_gaps(graph)
    found += reachability(graph, hidden, book)
    return found
