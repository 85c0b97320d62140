"""W085: no way to win the book was found (issue 14.10).

A book whose victory paragraphs the graph reaches may still be unwinnable: every way there
may pass a fight no hero wins, a cost no path can pay, a condition no hero meets, a loss
that kills. The bounds analysis (:mod:`dedale.validator.intervals`) is run again with the
fights no hero can win (W031) never won; when it reaches no victory alive, and no random
game won either, W085 says so, with the findings that cut the ways (the reason), or what the
random games met when the analysis cannot tell. One finding that cuts every way (a lone W031
on the only road) says enough by itself; errors come first.
"""

from __future__ import annotations

from collections.abc import Sequence

from dedale.i18n import tr
from dedale.validator.class_reach import listed
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, header_span, walk
from dedale.validator.intervals import Analysis, analyse

CUTTING = ("W031", "W080", "W081", "W084", "W029")  # findings that may cut a way to victory
REASONS_SHOWN = 6
MIN_RUNS = 100  # random games that must all fail before they alone make W085


def _reasons(found: Sequence[Finding], reached: set[int], to_victory: set[int]) -> list[str]:
    shown = []
    for item in sorted(found, key=lambda f: (f.paragraph or 0, f.code)):
        if item.code in CUTTING and item.paragraph in reached and item.paragraph in to_victory:
            shown.append(tr("paragraph {number} ({code})", number=item.paragraph, code=item.code))
    unique = list(dict.fromkeys(shown))
    return unique[:REASONS_SHOWN] + (["…"] if len(unique) > REASONS_SHOWN else [])


def _random_reason(stats: object) -> str:
    deadliest = stats.deadliest()  # type: ignore[attr-defined]
    if deadliest:
        return tr(
            "none of the {runs} random games won; most died at paragraph {number}",
            runs=stats.runs,  # type: ignore[attr-defined]
            number=deadliest[0][0],
        )
    return tr("none of the {runs} random games won", runs=stats.runs)  # type: ignore[attr-defined]


def winnable_findings(
    graph: Graph,
    book: object,
    hidden: tuple[int, ...],
    found: Sequence[Finding],
    stats: object | None,
    seconds: float | None,
    bounds: Analysis | None = None,
) -> list[Finding]:
    """W085 when neither the analysis nor a random game finds a way to win (``bounds``: the
    analysis already run without lost fights, reused when no fight is lost)."""
    if any(item.severity == "error" for item in found):
        return []  # E016, E028, a missing item...: the errors say why first
    if stats is not None and getattr(stats, "victories", 0) > 0:
        return []
    lost = frozenset(item.span for item in found if item.code == "W031" and item.span)
    analysis = bounds  # None: nothing in the book changes a value, so only W031 can cut
    if lost:
        analysis = analyse(graph, book, walk, hidden, seconds, lost)
    static_cut = analysis is not None and analysis.complete and not analysis.victories
    if not static_cut and (stats is None or getattr(stats, "runs", 0) < MIN_RUNS):
        return []
    victories = [n for n, node in graph.nodes.items() if "victory" in node.endings]
    to_victory = graph.reaching(victories)
    if graph.start not in to_victory:
        return []  # E016
    if static_cut:
        reasons = _reasons(found, set(analysis.entry), to_victory)
        if len(reasons) == 1:
            return []  # one finding cuts every way: it says enough
        reason = (
            tr("every way to victory is cut at {places}", places=listed(reasons))
            if reasons
            else tr("no path reaches a victory with the hero alive")
        )
    elif stats is not None and getattr(stats, "runs", 0) >= MIN_RUNS:
        if stats.runs < getattr(stats, "planned", 0) or getattr(stats, "unfinished", 0):
            return []  # cut by the time budget (I051), or games that never end (W043)
        reason = _random_reason(stats)
    else:
        return []
    start = graph.nodes[graph.start].paragraph
    return [
        finding(
            "W085",
            tr("no way to win this book was found: {reason}", reason=reason),
            header_span(start),
            paragraph=graph.start,
            hint=tr("make one way to a victory passable for some hero"),
        )
    ]
