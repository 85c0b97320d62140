"""The text report (Rich): findings grouped by file, each with its source line and a caret,
then the fight odds, the random playthroughs and a summary table.

A book with more than :data:`FIGHTS_LISTED` fights gets only its weak fights in the table
(those with a W030, W031 or W032 finding, or odds unavailable) and a line that sums the
others up; ``--all-fights`` (``all_fights=True``) lists every fight."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from rich.console import Console
from rich.table import Table
from rich.text import Text

from dedale.errors import read_source_line
from dedale.i18n import Message, ntr, tr, translate
from dedale.validator.checker import BookReport
from dedale.validator.fights import FightReport, enemy_names
from dedale.validator.findings import Finding
from dedale.validator.report import display_path
from dedale.validator.report.fight_path_report import fight_path_text
from dedale.validator.report.language import number, percent, report_language

FIGHTS_LISTED = 10  # a longer table is cut down to the weak fights (--all-fights: all)
WEAK_CODES = frozenset({"W030", "W031", "W032"})

STYLES = {"error": "bold red", "warning": "yellow", "info": "cyan"}
SEVERITY_WORDS: dict[str, Message] = {
    "error": tr("error"),
    "warning": tr("warning"),
    "info": tr("info"),
}
LEVEL_WORDS: dict[str, Message] = {
    "weakest": tr("Weakest"),
    "median": tr("Median"),
    "strongest": tr("Strongest"),
}


def _finding(item: Finding, book_path: str, lang: str | None = None) -> Text:
    span = item.span
    where = f"{display_path(span.file)}:{span.line}:{span.column}" if span else book_path
    text = Text()
    text.append(f"{where}: ", style="bold")
    severity = SEVERITY_WORDS[item.severity].translate(lang)
    text.append(f"{severity} {item.code}", style=STYLES[item.severity])
    text.append(f" {translate(item.message, lang)}")
    line = read_source_line(span) if span else None
    if line is not None:
        source = line.rstrip("\n").expandtabs(4)
        width = 1
        if span.end_line == span.line and span.end_column:
            width = max(1, span.end_column - span.column)
        text.append(f"\n    {source}\n", style="dim")
        text.append("    " + " " * (span.column - 1) + "^" * width, style=STYLES[item.severity])
    if item.hint:
        text.append("\n  " + tr("hint:").translate(lang) + " ", style="bold")
        text.append(translate(item.hint, lang))
    return text


def _percent(value: float | None, lang: str | None = None) -> str:
    return "-" if value is None else percent(value, lang)


def _estimated(value: float | None, lang: str | None = None) -> str:
    return "-" if value is None else f"≈ {percent(value, lang)}"


def _fights_table(
    fights: Sequence[FightReport], lang: str | None = None, luck: str | None = ""
) -> Table:
    """The fight table; ``luck``: what the second figure of a cell spends at best (the
    report's ``luck_name``: "" Luck, a counter's name, None: no second figure)."""
    if luck is None:
        title = tr("Fight odds (chance of winning)").translate(lang)
    elif not luck:
        title = tr("Fight odds (chance of winning: no Luck / best Luck)").translate(lang)
    else:
        title = tr(
            "Fight odds (chance of winning: no {points} spent / {points} at best)", points=luck
        ).translate(lang)
    table = Table(title=title, title_justify="left")
    table.add_column("§", justify="right")
    table.add_column(tr("Enemies").translate(lang))
    table.add_column(tr("Hero").translate(lang))
    for level in ("weakest", "median", "strongest"):
        table.add_column(LEVEL_WORDS[level].translate(lang), justify="right")
    for report in fights:
        enemies = enemy_names(report.fight)  # a group as the book writes it: "3 RATS"
        if report.error is not None:
            unavailable = tr("unavailable").translate(lang)
            table.add_row(str(report.paragraph), enemies, "-", unavailable, "", "")
            continue
        classes = sorted({o.hero.class_name or "" for o in report.odds}, key=lambda c: (c != "", c))
        fight = report.fight
        exits = (fight.assault_limit, fight.escape, fight.threshold)
        if any(exit is not None for exit in exits):
            # its figures count every way out alive, not the victory only (docs/validator.md)
            enemies += "\n" + tr("(leaving alive: won or by a way out)").translate(lang)
        if report.death_ways:  # a way out to a death ending is no way out alive
            deaths = ", ".join(str(n) for n in report.death_ways)
            note = ntr(
                "(a way out to § {numbers}, a death ending, counts as a defeat)",
                "(ways out to §§ {numbers}, death endings, count as defeats)",
                len(report.death_ways),
                numbers=deaths,
            )
            enemies += "\n" + note.translate(lang)
        estimate = report.method == "estimate"
        if estimate:
            guessed = [o for o in report.odds if o.estimate]
            least = min(o.samples or 0 for o in guessed)
            most = max(o.samples or 0 for o in guessed)
            margin = max(o.margin or 0.0 for o in guessed)
            count = (
                number(least, lang, 0)
                if least == most
                else f"{number(least, lang, 0)}-{number(most, lang, 0)}"
            )
            note = ntr(
                "(estimate: {fights} fight a cell, ± {margin} at 95%)",
                "(estimate: {fights} fights a cell, ± {margin} at 95%)",
                most,
                fights=count,
                margin=percent(margin, lang),
            )
            enemies += "\n" + note.translate(lang)
        # the range over the loadouts: what every path carries, then the best one
        rows = [(report.odds, class_name, False) for class_name in classes]
        rows += [(report.best, class_name, True) for class_name in classes if report.best]
        for position, (odds, class_name, best_loadout) in enumerate(rows):
            cells = []
            for level in ("weakest", "median", "strongest"):
                none = _row(odds, level, "none", class_name or None)
                best = _row(odds, level, "best", class_name or None)
                if luck is None and best is None:  # no second figure in this ruleset
                    cells.append(_cell(none, lang))
                else:
                    cells.append(f"{_cell(none, lang)} / {_cell(best, lang)}")
            hero = class_name or tr("any").translate(lang)
            if best_loadout and report.carried is not None:
                items = ", ".join(report.carried.changing)
                hero = tr("{hero} with {items}", hero=hero, items=items).translate(lang)
            table.add_row(
                str(report.paragraph) if position == 0 else "",
                enemies if position == 0 else "",
                hero,
                *cells,
            )
    return table


def _row(odds, level: str, luck: str, class_name: str | None):
    for row in odds:
        if (row.hero.level, row.luck, row.hero.class_name) == (level, luck, class_name):
            return row
    return None


def _cell(row, lang: str | None) -> str:
    """One figure: ``≈`` only when that row is an estimate (a fight at once may have exact
    rows without Luck beside estimated best-Luck ones)."""
    if row is None:
        return "-"
    return _estimated(row.win, lang) if row.estimate else _percent(row.win, lang)


def _playthroughs(report: BookReport, lang: str | None = None) -> Text:
    stats = report.playthroughs
    assert stats is not None
    text = Text()
    text.append(tr("Random playthroughs").translate(lang), style="bold")
    details = ntr(
        " ({runs} game, seed {seed}): victory {victory}, death {death}, "
        "average length {length} paragraphs, coverage {reached}/{total}",
        " ({runs} games, seed {seed}): victory {victory}, death {death}, "
        "average length {length} paragraphs, coverage {reached}/{total}",
        stats.runs,
        runs=stats.runs,
        seed=stats.seed,
        victory=percent(stats.victory_rate, lang),
        death=percent(stats.deaths / max(1, stats.runs), lang),
        length=number(stats.average_length, lang),
        reached=len(stats.reached),
        total=report.paragraphs,
    )
    text.append(details.translate(lang))
    deadliest = stats.deadliest()
    if deadliest:
        shown = ", ".join(f"§{paragraph} ({deaths})" for paragraph, deaths in deadliest)
        text.append("\n  " + tr("deadliest: {paragraphs}", paragraphs=shown).translate(lang))
    return text


def _summary(reports: Sequence[BookReport], lang: str | None = None) -> Table:
    table = Table(title=tr("Summary").translate(lang), title_justify="left")
    table.add_column(tr("Book").translate(lang))
    table.add_column(tr("Paragraphs").translate(lang), justify="right")
    table.add_column(tr("Errors").translate(lang), justify="right")
    table.add_column(tr("Warnings").translate(lang), justify="right")
    table.add_column(tr("Info").translate(lang), justify="right")
    table.add_column(tr("Silenced").translate(lang), justify="right")
    table.add_column(tr("Victory rate").translate(lang), justify="right")
    for report in reports:
        stats = report.playthroughs
        table.add_row(
            display_path(report.path),
            str(report.paragraphs),
            str(report.count("error")),
            str(report.count("warning")),
            str(report.count("info")),
            str(report.silenced),
            _percent(stats.victory_rate, lang) if stats else "-",
        )
    return table


def weak_fights(report: BookReport) -> list[FightReport]:
    """The fights of ``report`` a finding calls weak (W030-W032), or whose odds are
    unavailable."""
    flagged = {
        (item.paragraph, item.span.line if item.span else None)
        for item in report.findings
        if item.code in WEAK_CODES
    }
    return [
        fight
        for fight in report.fights
        if fight.error is not None or (fight.paragraph, fight.fight.span.line) in flagged
    ]


def _lowest_median(fights: Sequence[FightReport]) -> tuple[float, int] | None:
    """The lowest best-Luck chance of the median hero, and its paragraph."""
    lowest = None
    for fight in fights:
        for odds in fight.odds:
            if odds.hero.level == "median" and odds.luck == "best" and odds.win is not None:
                if lowest is None or odds.win < lowest[0]:
                    lowest = (odds.win, fight.paragraph)
    return lowest


def _fights_summary(report: BookReport, shown: int, lang: str | None) -> Text:
    total = len(report.fights)
    text = Text()
    if shown:
        line = ntr(
            "{total} fights, {shown} weak one listed above; --all-fights lists every fight",
            "{total} fights, {shown} weak ones listed above; --all-fights lists every fight",
            shown,
            shown=shown,
            total=total,
        )
    else:
        line = tr("{total} fights, none weak; --all-fights lists every fight", total=total)
    text.append(line.translate(lang), style="bold" if shown else "")
    lowest = _lowest_median(report.fights)
    if lowest is not None:
        low = tr(
            "lowest chance of the median hero (best Luck): {chance} at § {paragraph}",
            chance=percent(lowest[0], lang),
            paragraph=lowest[1],
        )
        text.append("\n  " + low.translate(lang))
    return text


def render(
    reports: Sequence[BookReport],
    stream: TextIO,
    exit_code: int = 0,
    console: Console | None = None,
    all_fights: bool = False,
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
                console.print(_finding(item, book_path, report.lang), soft_wrap=True)
        if report.fights and (all_fights or len(report.fights) <= FIGHTS_LISTED):
            console.print(_fights_table(report.fights, report.lang, report.luck_name))
        elif report.fights:
            weak = weak_fights(report)
            if weak:
                console.print(_fights_table(weak, report.lang, report.luck_name))
            console.print(_fights_summary(report, len(weak), report.lang))
        if report.fight_path is not None:
            console.print(fight_path_text(report.fight_path, report.lang), soft_wrap=True)
        if report.playthroughs is not None:
            console.print(_playthroughs(report, report.lang))
    console.print(_summary(reports, report_language(reports)))
