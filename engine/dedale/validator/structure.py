"""Structure checks: missing and duplicate paragraphs, numbering gaps, reachability, dead
ends, loops with no way out, no reachable victory, hidden paragraphs without a clue."""

from __future__ import annotations

from collections.abc import Iterator

from dedale import ast
from dedale.errors import (
    BookMetadataError,
    BookStructureError,
    BookSyntaxError,
    DedaleError,
    RulesetError,
)
from dedale.i18n import Message, tr
from dedale.validator.findings import CHECKS, Finding, finding
from dedale.validator.graph import Graph, header_span
from dedale.validator.hidden import (
    answer_findings,
    own_answers,
    reachable_paragraphs,
    without_clue,
)

_LOAD_CODES: tuple[tuple[type[DedaleError], str], ...] = (
    (BookSyntaxError, "E001"),
    (BookStructureError, "E002"),
    (BookMetadataError, "E003"),
    (RulesetError, "E004"),
)


# Structure errors the loader finds that have a code of their own, by the wording of
# dedale.language (loader.py, checks.py); an error carrying a ``code`` attribute wins.
_STRUCTURE_CODES: tuple[tuple[str, str], ...] = (
    ("is defined twice", "E011"),
    ("unknown counter ", "E021"),
    ("unknown stat", "E020"),
    ("unknown characteristic ", "E020"),
)


def load_error_code(error: DedaleError) -> str:
    """The finding code of a loader error."""
    code = getattr(error, "code", None)
    if code in CHECKS:
        return code
    code = next((c for kind, c in _LOAD_CODES if isinstance(error, kind)), "E005")
    if code == "E002":
        for words, specific in _STRUCTURE_CODES:
            if error.message.startswith(words) or error.message.endswith(words):
                return specific
    return code


def load_error_findings(errors: list[DedaleError]) -> list[Finding]:
    """Each loader error as a finding (its own code, span and hint)."""
    return [
        finding(load_error_code(error), error.message, error.span, hint=error.hint)
        for error in errors
    ]


_EDGE_KINDS: dict[str, Message] = {
    "choice": tr("choice"),
    "goto": tr("go to"),
    "branch": tr("branch"),
    "fight-win": tr("fight win"),
    "fight-lose": tr("fight loss"),
    "escape": tr("escape"),
    "limit": tr("fight limit"),
    "hidden": tr("hidden destination"),
}


def edge_kind(kind: str) -> str:
    """The words naming a kind of graph edge (translatable), for messages."""
    return _EDGE_KINDS.get(kind, kind)


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
                    tr(
                        "{kind} leads to paragraph {name}, which does not exist",
                        kind=edge_kind(edge.kind),
                        name=name,
                    ),
                    edge.ref.span,
                    paragraph=node.number,
                    hint=tr("write that paragraph, or fix the number"),
                )


def numbering_gaps(graph: Graph) -> Iterator[Finding]:
    """W012: runs of missing numbers between the lowest and highest paragraph."""
    numbers = sorted(graph.nodes)
    for before, after in zip(numbers, numbers[1:], strict=False):
        if after - before > 1:
            missing = str(before + 1) if after - before == 2 else f"{before + 1}-{after - 1}"
            yield finding(
                "W012",
                tr(
                    "no paragraph numbered {missing} (between {before} and {after})",
                    missing=missing,
                    before=before,
                    after=after,
                ),
                header_span(graph.nodes[after].paragraph),
                paragraph=after,
                hint=tr("printed books number every paragraph; silence W012 if this is deliberate"),
            )


def hidden_destinations(graph: Graph, book: object, hidden: tuple[int, ...]) -> Iterator[Finding]:
    """E003 (a declared paragraph that does not exist), W017, W018."""
    meta = getattr(book, "meta", None)
    where = meta.span("validator") if hasattr(meta, "span") else None
    for number in hidden:
        if number not in graph.nodes:
            yield finding(
                "E003",
                tr(
                    "`validator: hidden:` in book.yaml names paragraph {number}, "
                    "which does not exist",
                    number=number,
                ),
                where,
                hint=tr("list only paragraphs of the book"),
            )
    declared = [number for number in hidden if number in graph.nodes]
    answers = own_answers(graph)
    yield from without_clue(graph, book, sorted(set(declared) | answers))
    if declared:
        return
    for node in graph.nodes.values():
        for ref in node.computed:
            yield finding(
                "W018",
                tr("computed destination: the validator cannot tell where it leads"),
                ref.span,
                paragraph=node.number,
                hint=tr("list its possible destinations in book.yaml under `validator: hidden:`"),
            )


def unreachable(graph: Graph, reachable: set[int]) -> Iterator[Finding]:
    """W013: paragraphs no path from the start leads to (a hidden one: no reachable prompt
    lists it)."""
    for number in sorted(set(graph.nodes) - reachable):
        prompts = sorted(
            {e.source for e in graph.predecessors.get(number, ()) if e.kind == "hidden"}
        )
        if prompts:
            yield finding(
                "W013",
                tr(
                    "paragraph {number} cannot be reached from the start ({start}): the "
                    "hidden-number prompts that list it (paragraph {prompts}) cannot be reached",
                    number=number,
                    start=graph.start,
                    prompts=", ".join(map(str, prompts)),
                ),
                header_span(graph.nodes[number].paragraph),
                paragraph=number,
                hint=tr("add a way to the prompt's paragraph"),
            )
            continue
        yield finding(
            "W013",
            tr(
                "paragraph {number} cannot be reached from the start ({start})",
                number=number,
                start=graph.start,
            ),
            header_span(graph.nodes[number].paragraph),
            paragraph=number,
            hint=tr("add a choice leading here, or declare it hidden (`> hidden paragraph`)"),
        )


def dead_ends(graph: Graph) -> list[Finding]:
    """E014: paragraphs whose body can end with no choice, go to nor ending."""
    found = []
    for number in sorted(graph.nodes):
        node = graph.nodes[number]
        if node.stuck and not node.computed:
            message = (
                tr("dead end: paragraph {number} has no way on and is not an ending", number=number)
                if not node.edges and not node.endings
                else tr(
                    "dead end: paragraph {number} can end with no choice to make", number=number
                )
            )
            found.append(
                finding(
                    "E014",
                    message,
                    header_span(node.paragraph),
                    paragraph=number,
                    hint=tr("add a choice, a 'go to', or 'death'/'victory'"),
                )
            )
    return found


def traps(graph: Graph, reachable: set[int], already: set[int]) -> Iterator[Finding]:
    """E015: reachable paragraphs from which no ending can be reached (a loop with no way
    out). Dead ends and missing destinations (``already`` reported) count as ways out, so
    one defect is reported once; each loop is reported where the reader enters it."""
    exits = set(already)
    for number, node in graph.nodes.items():
        if node.is_exit or node.computed:
            exits.add(number)
        elif any(edge.target is None or edge.target not in graph.nodes for edge in node.edges):
            exits.add(number)
    trapped = reachable - graph.reaching(exits)
    for number in sorted(trapped):
        entered_from_outside = number == graph.start or any(
            edge.source not in trapped for edge in graph.predecessors.get(number, ())
        )
        if entered_from_outside:
            loop = sorted(graph.reachable_from([number]))
            shown = ", ".join(map(str, loop[:8])) + (", ..." if len(loop) > 8 else "")
            yield finding(
                "E015",
                tr(
                    "once at paragraph {number} the reader can never reach an ending "
                    "(trapped among {shown})",
                    number=number,
                    shown=shown,
                ),
                header_span(graph.nodes[number].paragraph),
                paragraph=number,
                hint=tr("give the loop a way out"),
            )


def no_victory(graph: Graph, reachable: set[int], declared: bool) -> Iterator[Finding]:
    """E016: no victory paragraph, or none reachable (unless undeclared computed
    destinations make it impossible to tell)."""
    victories = [n for n, node in graph.nodes.items() if "victory" in node.endings]
    if victories and reachable & graph.reaching(victories):
        return
    if victories and not declared and any(graph.nodes[n].computed for n in reachable):
        return
    yield finding(
        "E016",
        tr("no victory can be reached from the start")
        if victories
        else tr("the book has no victory paragraph"),
        header_span(graph.nodes[graph.start].paragraph),
        paragraph=graph.start,
        hint=tr("end the winning paragraph with '> victory'"),
    )


def check_structure(graph: Graph, book: object, hidden: tuple[int, ...]) -> list[Finding]:
    """Every structure finding of a loaded book."""
    found = list(missing_targets(graph))
    found += numbering_gaps(graph)
    if graph.start is None or graph.start not in graph.nodes:
        return found  # the loader reports a missing start
    found += hidden_destinations(graph, book, hidden)
    declared = [number for number in hidden if number in graph.nodes]
    reachable = reachable_paragraphs(graph, declared)
    found += unreachable(graph, reachable)
    found += answer_findings(graph, declared)
    ends = dead_ends(graph)
    found += ends
    found += traps(graph, reachable, {item.paragraph for item in ends if item.paragraph})
    found += no_victory(graph, reachable, bool(declared))
    return found
