"""BookMap: what ``dedale graph`` draws, built from the validator's paragraph graph.

Nodes are paragraphs with their kinds (start, victory, death, fight, test, hidden) and the
findings the validator's static checks put on them; edges are the graph's edges with a
label in the author's own words (the conditions of a choice, the outcome of a test line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from dedale import ast
from dedale.bookmap.findings import MapFinding, map_findings
from dedale.bookmap.labels import SourceLines, edge_label
from dedale.validator.graph import Graph, build_graph, declared_hidden, walk

_TESTS = (ast.Test, ast.DuoTest, ast.D20Test, ast.RandomRoll)


@dataclass(frozen=True, slots=True)
class MapNode:
    """One paragraph on the map."""

    number: int
    label: str | None
    file: str  # relative to the book's folder
    line: int
    kinds: tuple[str, ...]  # start, victory, death, fight, test, hidden
    findings: tuple[MapFinding, ...] = ()
    excerpt: str = ""  # the first words of its text


@dataclass(frozen=True, slots=True)
class MapEdge:
    """One way from a paragraph to another (``target`` None: it names no paragraph)."""

    source: int
    target: int | None
    kind: str  # choice, goto, fight-win, fight-lose, escape, limit, hidden
    label: str
    line: int


@dataclass(slots=True)
class BookMap:
    """The whole map, or the part of it ``dedale.bookmap.select`` keeps."""

    title: str
    start: int | None
    nodes: dict[int, MapNode]
    edges: list[MapEdge]
    files: list[str] = field(default_factory=list)  # clusters, in the book's order

    def restricted(self, keep: set[int]) -> BookMap:
        """The map of the paragraphs in ``keep`` and the edges between them."""
        nodes = {n: node for n, node in self.nodes.items() if n in keep}
        edges = [e for e in self.edges if e.source in keep and (e.target in keep)]
        files = [f for f in self.files if any(node.file == f for node in nodes.values())]
        return BookMap(self.title, self.start, nodes, edges, files)


def _relative(file: str, root: Path | None) -> str:
    if root is None:
        return Path(file).name
    try:
        return Path(file).resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return Path(file).name


def _kinds(body: tuple[ast.Statement, ...], hidden: bool) -> list[str]:
    """The paragraph's kinds; only a written ending counts (a fight lost kills too, but the
    map shows the fight)."""
    statements = list(walk(body))
    endings = {s.kind for s in statements if isinstance(s, ast.Ending)}
    kinds = [kind for kind in ("victory", "death") if kind in endings]
    if any(isinstance(s, ast.Fight) for s in statements):
        kinds.append("fight")
    if any(isinstance(s, _TESTS) for s in statements):
        kinds.append("test")
    if hidden:
        kinds.append("hidden")
    return kinds


def _excerpt(body: tuple[ast.Statement, ...], limit: int = 60) -> str:
    for statement in body:
        if isinstance(statement, ast.Prose) and statement.text.strip():
            words = " ".join(statement.text.split())
            return words if len(words) <= limit else words[: limit - 1].rstrip() + "…"
    return ""


def book_language(book: object) -> str | None:
    """The book's ``language:`` (the map speaks it), None when it declares none."""
    meta = getattr(book, "meta", None)
    lang = meta.get("language") if isinstance(meta, dict) else getattr(meta, "language", None)
    return lang if isinstance(lang, str) else None


def build_map(book: object, odds_seconds: float | None = 2.0, lang: str | None = None) -> BookMap:
    """The map of a loaded book, in ``lang`` (default: the book's language);
    ``odds_seconds``: the time the fight odds may take (None or 0: no odds, so no
    deadly-fight marks)."""
    lang = lang or book_language(book)
    graph: Graph = build_graph(book)
    root = getattr(book, "root", None)
    root = root if isinstance(root, Path) else None
    if root is not None and root.is_file():
        root = root.parent
    hidden = set(declared_hidden(book))
    findings = map_findings(graph, book, odds_seconds, lang)
    lines = SourceLines()
    nodes: dict[int, MapNode] = {}
    edges: list[MapEdge] = []
    files: list[str] = []
    for number, node in graph.nodes.items():
        paragraph = node.paragraph
        file = _relative(paragraph.span.file, root)
        if file not in files:
            files.append(file)
        kinds = _kinds(paragraph.body, number in hidden)
        if number == graph.start:
            kinds.insert(0, "start")
        nodes[number] = MapNode(
            number, paragraph.label, file, paragraph.span.line, tuple(kinds),
            tuple(findings.get(number, ())), _excerpt(paragraph.body),
        )  # fmt: skip
        seen: set[tuple[int | None, str, str]] = set()
        for edge in node.edges:
            label = edge_label(edge, lines, lang)
            key = (edge.target, edge.kind, label)
            if key in seen:  # a hidden-number prompt and its fallback may repeat a way
                continue
            seen.add(key)
            edges.append(MapEdge(number, edge.target, edge.kind, label, edge.span.line))
    title = getattr(book, "title", None) or ""
    return BookMap(str(title), graph.start, nodes, edges, files)
