"""The text report (Rich): findings grouped by file, each with its source line and a caret,
then the fight odds, the random playthroughs and a summary table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dedale.errors import read_source_line
from dedale.validator.checker import BookReport
from dedale.validator.fights import FightReport
from dedale.validator.findings import Finding
from dedale.validator.report import display_path

STYLES = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def _finding(item: Finding, book_path: str) -> Text:
    span = item.span
    where = f"{display_path(span.file)}:{span.line}:{span.column}" if span else book_path
    text = Text()
    text.append(f"{where}: ", style="bold")
    text.append(f"{item.severity} {item.code}", style=STYLES[item.severity])
    text.append(f" {item.message}")
    line = read_source_line(span) if span else None
    if line is not None:
        source = line.rstrip("\n").expandtabs(4)
        width = 1
        if span.end_line == span.line and span.end_column:
            width = max(1, span.end_column - span.column)
        text.append(f"\n    {source}\n", style="dim")
        text.append("    " + " " * (span.column - 1) + "^" * width, style=STYLES[item.severity])
    if item.hint:
        text.append("\n  hint: ", style="bold")
        text.append(item.hint)
    return text


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _estimated(value: float | None) -> str:
    return "-" if value is None else f"≈ {value:.1%}"


def _fights_table(fights: Sequence[FightReport]) -> Table:
    table = Table(title="Fight odds (chance of winning: no Luck / best Luck)", title_justify="left")
    table.add_column("§", justify="right")
    table.add_column("Enemies")
    table.add_column("Hero")
    for level in ("weakest", "median", "strongest"):
        table.add_column(level.capitalize(), justify="right")
    for report in fights:
        enemies = ", ".join(enemy.name for enemy in report.fight.enemies)
        if report.error is not None:
            table.add_row(str(report.paragraph), enemies, "-", "unavailable", "", "")
            continue
        classes = sorted({o.hero.class_name or "" for o in report.odds}, key=lambda c: (c != "", c))
        estimate = report.method == "estimate"
        shown = _estimated if estimate else _percent
        if estimate:
            least = min(o.samples or 0 for o in report.odds)
            most = max(o.samples or 0 for o in report.odds)
            margin = max(o.margin or 0.0 for o in report.odds)
            count = f"{least:,}" if least == most else f"{least:,}-{most:,}"
            enemies += f"\n(estimate: {count} fights a cell, ± {margin:.1%} at 95%)"
        for position, class_name in enumerate(classes):
            cells = []
            for level in ("weakest", "median", "strongest"):
                none = report.win(level, "none", class_name or None)
                best = report.win(level, "best", class_name or None)
                cells.append(f"{shown(none)} / {shown(best)}")
            table.add_row(
                str(report.paragraph) if position == 0 else "",
                enemies if position == 0 else "",
                class_name or "any",
                *cells,
            )
    return table


def _playthroughs(report: BookReport) -> Text:
    stats = report.playthroughs
    assert stats is not None
    text = Text()
    text.append("Random playthroughs", style="bold")
    text.append(
        f" ({stats.runs} games, seed {stats.seed}): victory {stats.victory_rate:.1%}, "
        f"death {stats.deaths / max(1, stats.runs):.1%}, "
        f"average length {stats.average_length:.1f} paragraphs, "
        f"coverage {len(stats.reached)}/{report.paragraphs}"
    )
    deadliest = stats.deadliest()
    if deadliest:
        shown = ", ".join(f"§{number} ({deaths})" for number, deaths in deadliest)
        text.append(f"\n  deadliest: {shown}")
    return text


def _summary(reports: Sequence[BookReport]) -> Table:
    table = Table(title="Summary", title_justify="left")
    table.add_column("Book")
    table.add_column("Paragraphs", justify="right")
    table.add_column("Errors", justify="right")
    table.add_column("Warnings", justify="right")
    table.add_column("Info", justify="right")
    table.add_column("Silenced", justify="right")
    table.add_column("Victory rate", justify="right")
    for report in reports:
        stats = report.playthroughs
        table.add_row(
            display_path(report.path),
            str(report.paragraphs),
            str(report.count("error")),
            str(report.count("warning")),
            str(report.count("info")),
            str(report.silenced),
            _percent(stats.victory_rate) if stats else "-",
        )
    return table


def render(
    reports: Sequence[BookReport],
    stream: TextIO,
    exit_code: int = 0,
    console: Console | None = None,
) -> None:
    console = console or Console(file=stream, width=100, highlight=False, soft_wrap=False)
    for report in reports:
        book_path = display_path(report.path)
        groups: dict[str, list[Finding]] = {}
        for item in report.findings:
            groups.setdefault(display_path(item.span.file) if item.span else book_path, []).append(
                item
            )
        for file, items in groups.items():
            console.rule(Text(file, style="bold"), align="left")
            for item in items:
                console.print(_finding(item, book_path), soft_wrap=True)
        if report.fights:
            console.print(_fights_table(report.fights))
        if report.playthroughs is not None:
            console.print(_playthroughs(report))
    console.print(_summary(reports))
