"""The JSON report: a stable, documented schema (docs/validator.md, "JSON schema").

Schema ``dedale-validate/1``: new keys may be added; existing keys keep their meaning.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, TextIO

from dedale import __version__
from dedale.i18n import translate
from dedale.json_text import dumps_indented
from dedale.validator.checker import BookReport
from dedale.validator.fights import FightReport
from dedale.validator.findings import Finding
from dedale.validator.playthroughs import PlaythroughStats
from dedale.validator.report import display_path
from dedale.validator.report.fight_path_report import fight_path_data

SCHEMA = "dedale-validate/1"

_SHOWN: dict[tuple[str, str], str] = {}


def _shown(file: str) -> str:
    """``display_path(file)``, kept per current folder and file: a report names the same
    few files at each finding and fight (``os.path.relpath``: 3 ms of the 1,000-paragraph
    book's report for 400 calls, issue 14.11)."""
    key = (os.getcwd(), file)
    found = _SHOWN.get(key)
    if found is None:
        if len(_SHOWN) >= 4096:
            _SHOWN.clear()
        found = _SHOWN[key] = display_path(file)
    return found


def finding_data(item: Finding, lang: str | None = None) -> dict[str, Any]:
    span = item.span
    return {
        "code": item.code,
        "severity": item.severity,
        "name": item.name,
        "message": translate(item.message, lang),
        "file": _shown(span.file) if span else None,
        "line": span.line if span else None,
        "column": span.column if span else None,
        "end_line": span.end_line if span else None,
        "end_column": span.end_column if span else None,
        "paragraph": item.paragraph,
        "hint": translate(item.hint, lang) if item.hint is not None else None,
    }


def fight_data(report: FightReport, lang: str | None = None) -> dict[str, Any]:
    span = report.fight.span
    return {
        "paragraph": report.paragraph,
        "file": _shown(span.file),
        "line": span.line,
        "column": span.column,
        "enemies": [enemy.name for enemy in report.fight.enemies],
        "error": translate(report.error, lang) if report.error is not None else None,
        "method": report.method,  # exact | estimate | null (unavailable)
        # why rows are estimated (the fight's exact odds past their budget), else null
        "estimated_because": translate(report.estimated_because, lang)
        if report.estimated_because is not None
        else None,
        # the death endings ways out of the fight turn to, counted as defeats in "win"
        "death_ways": list(report.death_ways),
        "odds": [_odds_row(odds) for odds in report.odds],  # with the items surely held
        "loadout": _loadout(report),
    }


def _odds_row(odds) -> dict[str, Any]:
    return {
        "hero": odds.hero.level,
        "class": odds.hero.class_name,
        "stats": dict(odds.hero.stats),
        "luck": odds.luck,
        "win": round(odds.win, 6),
        "samples": odds.samples,  # simulated fights (estimates), else null
        "margin": None if odds.margin is None else round(odds.margin, 6),
    }


def _loadout(report: FightReport) -> dict[str, Any] | None:
    """The items surely held at the fight, the best loadout, the items maybe held that
    change the odds and the odds with them (null: the exact odds did not look at items)."""
    carried = report.carried
    if carried is None:
        return None
    return {
        "surely": sorted(carried.surely),
        "best": sorted(carried.best),
        "changing": list(carried.changing),
        "best_odds": [_odds_row(odds) for odds in report.best] if report.best else None,
    }


def playthrough_data(stats: PlaythroughStats | None, total: int) -> dict[str, Any] | None:
    if stats is None:
        return None
    return {
        "runs": stats.runs,
        "seed": stats.seed,
        "victories": stats.victories,
        "deaths": stats.deaths,
        "unfinished": stats.unfinished,
        "errors": stats.errors,
        "victory_rate": round(stats.victory_rate, 6),
        "average_length": round(stats.average_length, 3),
        "coverage": {
            "reached": len(stats.reached),
            "total": total,
            "never_reached": sorted(stats.never_reached),
        },
        "deadliest": [
            {"paragraph": number, "deaths": deaths} for number, deaths in stats.deadliest()
        ],
    }


def book_data(report: BookReport) -> dict[str, Any]:
    return {
        "path": display_path(report.path),
        "title": report.title,
        "language": report.lang,
        "paragraphs": report.paragraphs,
        "errors": report.count("error"),
        "warnings": report.count("warning"),
        "infos": report.count("info"),
        "silenced": report.silenced,
        "findings": [finding_data(item, report.lang) for item in report.findings],
        "fights": [fight_data(fight, report.lang) for fight in report.fights],
        "playthroughs": playthrough_data(report.playthroughs, report.paragraphs),
        "fight_path": fight_path_data(report.fight_path, report.lang),
    }


def document(reports: Sequence[BookReport], exit_code: int) -> dict[str, Any]:
    """The whole JSON document."""
    return {
        "schema": SCHEMA,
        "dedale": __version__,
        "books": [book_data(report) for report in reports],
        "summary": {
            "errors": sum(r.count("error") for r in reports),
            "warnings": sum(r.count("warning") for r in reports),
            "infos": sum(r.count("info") for r in reports),
            "exit_code": exit_code,
        },
    }


def render(reports: Sequence[BookReport], stream: TextIO, exit_code: int = 0) -> None:
    # one write: a reader of the pipe never sees half a document, and it is faster
    # json.dumps(..., ensure_ascii=False, indent=2), the same text, faster (dedale.json_text)
    stream.write(dumps_indented(document(reports, exit_code)) + "\n")
