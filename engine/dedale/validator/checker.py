"""Validate one book: load it, run every check, and gather the findings and statistics."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from dedale.errors import BookLoadError, DedaleError
from dedale.i18n import tr
from dedale.validator.book_state_checks import check_book_state
from dedale.validator.budget import (
    FIGHTS_SECONDS,
    PLAYTHROUGHS_SECONDS,
    STATES_SECONDS,
    playthrough_budget,
)
from dedale.validator.class_reach import class_findings, class_reach
from dedale.validator.computed import computed_destinations
from dedale.validator.dedupe import one_per_defect
from dedale.validator.fight_findings import fight_findings, fights_budget
from dedale.validator.fight_path import (
    PATH_SECONDS,
    FightPath,
    fight_path,
    fight_path_findings,
)
from dedale.validator.fights import FightReport, fight_reports
from dedale.validator.findings import Finding
from dedale.validator.graph import build_graph, declared_hidden
from dedale.validator.loops import forced_loops, needs_guard
from dedale.validator.near_names import tie_near_names
from dedale.validator.playthroughs import PlaythroughStats, play_random_games
from dedale.validator.prose_checks import explain_dead_ends, prose_findings
from dedale.validator.prose_refs import prose_ref_findings
from dedale.validator.repeated_tests import repeated_test_findings
from dedale.validator.resources import check_resources
from dedale.validator.rules_checks import check_rules, collect_uses
from dedale.validator.settings import DEFAULT_RUNS, read_settings
from dedale.validator.softlocks import check_softlocks, may_lose
from dedale.validator.state_reach import check_states, explore_states
from dedale.validator.structure import check_structure, load_error_findings
from dedale.validator.winnable import winnable_findings


@dataclass(slots=True)
class BookReport:
    """Everything the validator found about one book."""

    path: str
    title: str | None = None
    paragraphs: int = 0
    findings: list[Finding] = field(default_factory=list)
    silenced: int = 0
    fights: list[FightReport] = field(default_factory=list)
    playthroughs: PlaythroughStats | None = None
    fight_path: FightPath | None = None  # the main path to victory's chained fights
    lang: str | None = None  # the book's language: the report speaks it
    #: what the fight table's second figure spends at best: "" the Luck test (FF), a heroism
    #: counter's name in the book's language (reliques' Courage), None: no such figure (d20)
    luck_name: str | None = ""

    def count(self, severity: str) -> int:
        return sum(1 for item in self.findings if item.severity == severity)


def _meta_value(book: object, key: str) -> object:
    meta = getattr(book, "meta", None)
    if isinstance(meta, dict):
        return meta.get(key)
    return getattr(meta, key, None)


def _luck_name(ruleset: object, lang: str) -> str | None:
    """What the fights' best column spends: "" for the ruleset's Luck test (when the test
    costs Luck), else the name in ``lang`` of a heroism counter that ignores a loss."""
    if ruleset is None:
        return ""
    fight = getattr(ruleset, "fight", None)
    test_id = getattr(fight, "luck_test", None)
    test = ruleset.tests.get(test_id) if test_id else None  # type: ignore[attr-defined]
    if test is not None and test.cost > 0:
        return ""
    spent = (getattr(ruleset, "heroism", None) or {}).get("ignore_loss")
    return ruleset.display_name(spent, lang) if spent else None  # type: ignore[attr-defined]


def _stage(progress: Callable[[str], None] | None, name: str) -> None:
    """Tell ``progress`` (validator.progress) which part of the checks starts (``name``: a
    Message, translated by the bar)."""
    if progress is not None:
        progress(name)


def validate_loaded(
    book: object,
    path: str,
    runs: int | None = None,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> BookReport:
    """Run every check on a loaded Book. ``runs=None``: book.yaml's or the default.
    ``progress``: called as each part of the checks starts (six times)."""
    report = BookReport(path, title=_str_or_none(_meta_value(book, "title")))
    report.lang = _str_or_none(_meta_value(book, "language"))
    report.luck_name = _luck_name(getattr(book, "ruleset", None), report.lang or "en")
    try:
        settings = read_settings(book)
    except DedaleError as error:
        report.findings = load_error_findings([error])
        return report
    _stage(progress, tr("structure and rules"))
    graph = build_graph(book)
    report.paragraphs = len(graph.nodes)
    hidden = tuple(dict.fromkeys((*settings.hidden, *declared_hidden(book))))
    found = check_structure(graph, book, hidden)
    uses = collect_uses(graph)
    found += check_rules(graph, book, uses)
    found = tie_near_names(found, uses, book)
    budget = settings.time_budget
    roots = hidden if any(node.computed for node in graph.nodes.values()) else ()
    seconds = budget or STATES_SECONDS
    _stage(progress, tr("items and codewords"))
    record = may_lose(graph, book, uses)
    explorer = explore_states(graph, book, uses, roots, seconds, record=record)
    found += check_states(graph, book, uses, roots, explorer=explorer)
    found += check_softlocks(explorer, graph, book, uses, roots)
    reach = class_reach(explorer)  # where each class can go (W088, the path of fights)
    found += class_findings(graph, book, explorer, reach)
    found += check_book_state(graph, book)
    _stage(progress, tr("stats and counters"))
    resources, bounds = check_resources(graph, book, roots, budget or STATES_SECONDS)
    found += resources
    found += computed_destinations(graph, book)
    found += forced_loops(graph, book)
    found += repeated_test_findings(graph, book)
    found += prose_findings(book)
    found += prose_ref_findings(book)
    _stage(progress, tr("fight odds"))
    report.fights = fight_reports(graph, book, seed, budget or FIGHTS_SECONDS, hidden)
    found += fights_budget(report.fights, budget or FIGHTS_SECONDS)
    found += fight_findings(report.fights, settings.fight_threshold)
    report.fight_path = fight_path(graph, book, report.fights, budget or PATH_SECONDS, reach)
    found += fight_path_findings(
        report.fight_path, settings.fight_threshold, budget or PATH_SECONDS
    )
    if runs is None:
        runs = settings.runs if settings.runs is not None else DEFAULT_RUNS
    _stage(progress, tr("random games"))
    if runs > 0 and graph.start in graph.nodes:
        stats, run_findings = play_random_games(
            book,
            graph,
            runs,
            seed,
            settings.max_steps,
            path,
            guarded=needs_guard(graph),
            budget=budget or PLAYTHROUGHS_SECONDS,
        )
        report.playthroughs = stats
        found += run_findings
        found += playthrough_budget(stats)
    _stage(progress, tr("ways to win"))
    found += winnable_findings(
        graph, book, hidden, found, report.playthroughs, budget or STATES_SECONDS, bounds
    )
    found = explain_dead_ends(one_per_defect(found, graph))
    kept = [item for item in found if not settings.silences(item)]
    report.silenced = len(found) - len(kept)
    report.findings = sorted(kept, key=lambda item: item.sort_key())
    return report


def _str_or_none(value: object) -> str | None:
    return None if value is None else str(value)


def validate_path(
    path: str | Path,
    runs: int | None = None,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
    loaded: Callable[[object], None] | None = None,
) -> BookReport:
    """Load the book at ``path`` and validate it; load errors become findings.
    ``progress``: see validate_loaded (called once more, for the loading); ``loaded``:
    called with the book once it is loaded, before the checks."""
    from dedale.language import load_book

    _stage(progress, tr("loading"))
    try:
        book = load_book(Path(path))
    except BookLoadError as error:
        report = BookReport(str(path))
        report.findings = sorted(load_error_findings(error.errors), key=lambda f: f.sort_key())
        return report
    except DedaleError as error:
        report = BookReport(str(path))
        report.findings = load_error_findings([error])
        return report
    except OSError as error:
        report = BookReport(str(path))
        unreadable = DedaleError(
            tr("cannot read {path}: {reason}", path=error.filename or path, reason=error.strerror)
        )
        report.findings = load_error_findings([unreadable])
        return report
    if loaded is not None:
        loaded(book)
    return validate_loaded(book, str(path), runs, seed, progress)
