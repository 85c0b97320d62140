"""The findings ``dedale graph`` marks on the map: the validator's static structure checks
(unreachable, dead end, no way out, missing destination), and the deadly or unwinnable
fights when their odds fit in a small time budget."""

from __future__ import annotations

from dataclasses import dataclass

from dedale.errors import DedaleError
from dedale.i18n import tr, translate
from dedale.validator.fight_findings import fight_findings
from dedale.validator.fights import fight_reports
from dedale.validator.findings import Finding
from dedale.validator.graph import Graph, declared_hidden
from dedale.validator.settings import read_settings
from dedale.validator.structure import check_structure

MARKED = {
    "E010": ("missing", tr("missing destination")),
    "W013": ("unreachable", tr("unreachable")),
    "E014": ("dead-end", tr("dead end")),
    "E015": ("no-way-out", tr("no way out")),
    "W030": ("deadly-fight", tr("deadly fight")),
    "W031": ("unwinnable-fight", tr("unwinnable fight")),
}
"""The finding codes the map shows: the mark each gives its paragraph, and its words."""


@dataclass(frozen=True, slots=True)
class MapFinding:
    """A finding on a paragraph: its code, its mark on the map, the mark's words and the
    validator's message (both in the map's language)."""

    code: str
    mark: str
    words: str
    message: str


def map_findings(
    graph: Graph, book: object, odds_seconds: float | None, lang: str | None = None
) -> dict[int, list[MapFinding]]:
    """The marked findings of each paragraph, in code order."""
    try:
        settings = read_settings(book)
    except DedaleError:
        settings = None
    hidden = tuple(dict.fromkeys((*(settings.hidden if settings else ()), *declared_hidden(book))))
    found: list[Finding] = check_structure(graph, book, hidden)
    if odds_seconds and settings is not None:
        reports = fight_reports(graph, book, 0, odds_seconds, hidden)
        found += fight_findings(reports, settings.fight_threshold)
    by_paragraph: dict[int, list[MapFinding]] = {}
    for item in sorted(found, key=lambda f: (f.code, f.message)):
        if item.code not in MARKED or item.paragraph is None:
            continue
        marks = by_paragraph.setdefault(item.paragraph, [])
        if all(mark.code != item.code for mark in marks):
            mark, words = MARKED[item.code]
            marks.append(
                MapFinding(item.code, mark, translate(words, lang), translate(item.message, lang))
            )
    return by_paragraph
