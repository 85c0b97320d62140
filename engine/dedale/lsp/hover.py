"""Hover texts: a paragraph's first lines, a fight's exact odds for the median hero, a
stat's definition in the ruleset. Markdown, in the book's language."""

from __future__ import annotations

import re

from dedale.i18n import tr, translate
from dedale.lsp.index import BookIndex, Heading, Reference
from dedale.lsp.session import BookSession

_WORD = re.compile(r"[\w'’-]+")


def paragraph_hover(index: BookIndex, number: int, lang: str) -> str | None:
    heading = index.heading(number)
    if heading is None:
        return translate(tr("paragraph {number} does not exist", number=number), lang)
    return _heading_text(heading)


def _heading_text(heading: Heading) -> str:
    title = f"**§ {heading.number}**" + (f" *{heading.label}*" if heading.label else "")
    return "\n\n".join((title, *heading.first_lines))


def reference_hover(index: BookIndex, ref: Reference, lang: str) -> str | None:
    number = index.target(ref)
    if number is None:
        return translate(tr("no paragraph is labelled `{label}`", label=ref.label or ""), lang)
    return paragraph_hover(index, number, lang)


def fight_hover(session: BookSession, index: BookIndex, path, line: int) -> str | None:  # noqa: ANN001
    """The odds of the fight written on ``line`` (its directive or an enemy line)."""
    heading = index.paragraph_at(path, line)
    file_index = index.files.get(path)
    if heading is None or file_index is None:
        return None
    fight = None
    for number, candidate in file_index.fights:
        lines = {candidate.span.line, *(enemy.span.line for enemy in candidate.enemies)}
        if number == heading.number and line + 1 in lines:
            fight = candidate
    if fight is None:
        return None
    lang = session.lang
    if session.book is None:
        return translate(tr("the fight's odds need a book that loads"), lang)
    report = next((r for r in session.fight_reports() if r.fight.span == fight.span), None)
    if report is None:
        return None
    if report.error:
        return translate(report.error, lang)
    none, best = report.win("median", "none"), report.best_win("median")
    if none is None:
        return None
    method = tr("exact") if report.method == "exact" else tr("estimated")
    text = tr(
        "**Median hero** wins {none} of the time ({method}); with the best use of Luck, {best}.",
        none=_percent(none, lang),
        best=_percent(best if best is not None else none, lang),
        method=method,
    )
    return translate(text, lang)


def _percent(value: float, lang: str) -> str:
    text = f"{value * 100:.1f}\u00a0%"
    return text.replace(".", ",") if lang == "fr" else text


def stat_hover(ruleset: object, line: str, column: int, lang: str) -> str | None:
    """The ruleset's definition of the stat or counter written at ``column``, if any."""
    if ruleset is None:
        return None
    for word in _WORD.finditer(line):
        if word.start() <= column <= word.end():
            found = ruleset.resolve(word.group(0))
            if found is None:
                return None
            kind, ident = found
            return _definition(ruleset, kind, ident, lang)
    return None


def _definition(ruleset: object, kind: str, ident: str, lang: str) -> str | None:
    shown = ruleset.display_name(ident, lang)
    for stat in getattr(ruleset, "stats", ()):
        if stat.id == ident and kind == "stat":
            parts = [
                f"**{shown}**",
                translate(tr("a stat of the ruleset `{name}`", name=ruleset.name), lang),
            ]
            if stat.roll is not None:
                parts.append(translate(tr("rolled at creation: {roll}", roll=str(stat.roll)), lang))
            parts.append(
                translate(
                    tr("may exceed its initial value")
                    if stat.may_exceed_initial
                    else tr("never exceeds its initial value"),
                    lang,
                )
            )
            return "\n\n".join(parts)
    for counter in getattr(ruleset, "counters", ()):
        if counter.id == ident:
            parts = [
                f"**{shown}**",
                translate(tr("a counter of the ruleset `{name}`", name=ruleset.name), lang),
            ]
            initial = getattr(counter, "initial", None)
            if initial is not None:
                parts.append(translate(tr("initial value: {value}", value=str(initial)), lang))
            return "\n\n".join(parts)
    return None
