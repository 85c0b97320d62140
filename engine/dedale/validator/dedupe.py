"""One finding per defect: drop the findings another one already explains.

- Unreachable paragraphs (W013): one finding at each paragraph where an unreachable part
  of the book begins, naming the paragraphs only it leads to (a missing ``> win -> 10``
  cuts 10 and everything after it off: one W013 at 10, not one per paragraph).
- Random games (E040, E041, W043, I042) report only what the static checks did not
  already explain: a game stuck at a dead end (E014) or at a choice whose condition can
  never hold (E023, E024, E028, W029), crashed on a missing destination (E010), or caught
  in a forced loop (E070, W071); a paragraph no game reached (I042) that is unreachable
  anyway (W013), or whose every way in is a choice on a condition that can never hold.
- A trap (E015) entered in a forced loop's paragraphs is that loop (E070).
"""

from __future__ import annotations

from collections.abc import Iterable

from dedale.i18n import ntr
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph

EXPLAINS: dict[str, frozenset[str]] = {
    "E040": frozenset({"E010", "E070", "W071"}),
    "E041": frozenset({"E010", "E014", "E023", "E024", "E028", "W029", "E070", "W071"}),
    "W043": frozenset({"E015", "E070", "W071"}),
}
LOOPS = frozenset({"E070", "W071"})
GATES = frozenset({"E023", "E024", "E028", "W029"})  # a way in that can never be taken
MAX_REGION_SCANS = 1_000  # unreachable paragraphs examined one by one at most
SHOWN = 8


def one_per_defect(found: Iterable[Finding], graph: Graph) -> list[Finding]:
    """``found`` without the findings another one explains (see the module docstring)."""
    found = list(found)
    at: dict[int, set[str]] = {}
    trapped: set[int] = set()
    for item in found:
        if item.paragraph is not None:
            at.setdefault(item.paragraph, set()).add(item.code)
        if item.code in LOOPS:
            trapped.update(int(n) for n in item.data.get("trap", ()))
    unreachable = {item.paragraph for item in found if item.code == "W013" and item.paragraph}
    gates = {(f.span.file, f.span.line) for f in found if f.code in GATES and f.span is not None}
    kept = []
    for item in found:
        number = item.paragraph
        if item.code in EXPLAINS and number is not None:
            if at.get(number, set()) & EXPLAINS[item.code] or number in trapped:
                continue
        if item.code == "I042" and (number in unreachable or _gated(number, graph, gates)):
            continue
        if item.code == "E015" and number in trapped:
            continue
        kept.append(item)
    return _regions(kept, graph, unreachable)


def _within(graph: Graph, root: int, cut: set[int]) -> set[int]:
    """The paragraphs of ``cut`` reachable from ``root`` through ``cut`` only."""
    seen = {root}
    queue = [root]
    while queue:
        for target in graph.successors(queue.pop()):
            if target in cut and target not in seen:
                seen.add(target)
                queue.append(target)
    return seen


def _gated(number: int | None, graph: Graph, gates: set[tuple[str, int]]) -> bool:
    """True when every way into the paragraph is on a line whose condition a static
    finding already says can never hold (so no random game could reach it)."""
    edges = graph.predecessors.get(number, ()) if number is not None else ()
    return bool(edges) and all((e.span.file, e.span.line) in gates for e in edges)


def _regions(found: list[Finding], graph: Graph, unreachable: set[int | None]) -> list[Finding]:
    """One W013 per unreachable region, at the paragraph it begins with."""
    if len(unreachable) < 2 or len(unreachable) > MAX_REGION_SCANS:
        return found
    cut = {n for n in unreachable if n is not None}
    reach = {n: _within(graph, n, cut) for n in sorted(cut)}

    def is_covered(number: int) -> bool:  # reached from upstream, or from its own loop's first
        return any(
            number in reach[other] and (other not in reach[number] or other < number)
            for other in cut
            if other != number
        )

    beginnings = sorted(n for n in cut if not is_covered(n))
    covered: dict[int, int] = {}  # paragraph -> the beginning of its region
    for root in beginnings:
        for number in sorted(reach[root]):
            if number != root and number not in beginnings:
                covered.setdefault(number, root)
    if not covered:
        return found
    kept = []
    for item in found:
        if item.code != "W013" or item.paragraph is None:
            kept.append(item)
            continue
        if item.paragraph in covered:
            continue
        others = sorted(n for n, root in covered.items() if root == item.paragraph)
        if not others:
            kept.append(item)
            continue
        shown = ", ".join(map(str, others[:SHOWN])) + (", ..." if len(others) > SHOWN else "")
        message = ntr(
            "paragraph {number} cannot be reached from the start ({start}), nor can the "
            "paragraph only it leads to: {others}",
            "paragraph {number} cannot be reached from the start ({start}), nor can the "
            "{count} paragraphs only it leads to: {others}",
            len(others),
            number=item.paragraph,
            start=graph.start,
            others=shown,
        )
        kept.append(
            finding(
                "W013",
                message,
                item.span,
                paragraph=item.paragraph,
                hint=item.hint,
                **{**item.data, "region": others},
            )
        )
    return kept
