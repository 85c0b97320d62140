"""The findings on a book's fight odds: W030 (the median hero wins less often than the
threshold even with the best Luck), W031 (even the strongest hero cannot win), W032 (too
many states for the exact odds), I051 (the fights' time budget ran out) — read from the
reports of :mod:`dedale.validator.fights`."""

from __future__ import annotations

from collections.abc import Iterable

from dedale.i18n import ntr, tr
from dedale.i18n import number as localised
from dedale.validator.budget import budget_finding
from dedale.validator.fight_plan import needs_exits
from dedale.validator.fights import CUT, FightReport, enemy_names
from dedale.validator.findings import Finding, finding


def fight_findings(reports: Iterable[FightReport], threshold: float) -> list[Finding]:
    """W030, W031, W032, I115."""
    found = []
    for report in reports:
        fight = report.fight
        if report.error is not None:
            if not report.supported:
                continue
            found.append(
                finding(
                    "W032",
                    tr(
                        "the odds of the fight against {enemies} cannot be computed: {reason}",
                        enemies=enemy_names(fight),
                        reason=report.error,
                    ),
                    fight.span,
                    paragraph=report.paragraph,
                )
            )
            continue
        if report.estimated_because is not None:
            found.append(
                finding(
                    "I115",
                    tr(
                        "the odds of the fight against {enemies} are estimated: {reason}",
                        enemies=enemy_names(fight),
                        reason=report.estimated_because,
                    ),
                    fight.span,
                    paragraph=report.paragraph,
                )
            )
        classes = sorted({o.hero.class_name for o in report.odds if o.hero.class_name})
        estimate = report.method == "estimate"
        samples = max((o.samples or 0 for o in report.odds), default=0)
        strongest = max((o.win for o in report.odds if o.hero.level == "strongest"), default=None)
        if strongest is not None and strongest == 0:
            if estimate:
                bound = max(o.margin or 0.0 for o in report.odds if o.hero.level == "strongest")
                message = ntr(
                    "no hero the ruleset can roll won the {samples} simulated fight "
                    "against {enemies}, even with Luck (an estimate: the chance is "
                    "below {bound} with 95% confidence)",
                    "no hero the ruleset can roll won any of {samples} simulated fights "
                    "against {enemies}, even with Luck (an estimate: the chance is "
                    "below {bound} with 95% confidence)",
                    samples,
                    samples=localised(samples, ","),
                    enemies=enemy_names(fight),
                    bound=localised(bound, ".1%"),
                )
                data = {"estimate": True, "samples": samples, "margin": round(bound, 6)}
            elif needs_exits(fight):  # the chance of any way out alive
                message = tr(
                    "no hero the ruleset can roll leaves the fight against {enemies} alive, "
                    "even with the best use of Luck",
                    enemies=enemy_names(fight),
                )
                data = {}
            else:
                message = tr(
                    "no hero the ruleset can roll wins the fight against {enemies}, "
                    "even with the best use of Luck",
                    enemies=enemy_names(fight),
                )
                data = {}
            message, more = _without_items(message, report, "strongest", None)
            data.update(more)
            found.append(
                finding(
                    "W031",
                    message,
                    fight.span,
                    paragraph=report.paragraph,
                    hint=tr("weaken the enemies, or give the fight a 'lose ->' branch"),
                    **data,
                )
            )
            continue
        for class_name in classes or [None]:
            win = report.best_win("median", class_name)
            if win is not None and win < threshold:
                who = (
                    tr("the median {name}", name=class_name)
                    if class_name
                    else tr("the median hero")
                )
                data: dict[str, object] = {"win_probability": win}
                if estimate:
                    row = max(
                        (
                            o
                            for o in report.odds
                            if (o.hero.level, o.hero.class_name) == ("median", class_name)
                        ),
                        key=lambda o: o.win,
                    )
                    margin, played = row.margin or 0.0, row.samples or 0
                    how = ntr(
                        "≈ {win} ± {margin} of the time (an estimate from "
                        "{played} simulated fight; threshold {threshold})",
                        "≈ {win} ± {margin} of the time (an estimate from "
                        "{played} simulated fights; threshold {threshold})",
                        played,
                        win=localised(win, ".1%"),
                        margin=localised(margin, ".1%"),
                        played=localised(played, ","),
                        threshold=localised(threshold, ".0%"),
                    )
                    data.update(estimate=True, samples=played, margin=round(margin, 6))
                else:
                    how = tr(
                        "only {win} of the time (threshold {threshold})",
                        win=localised(win, ".1%"),
                        threshold=localised(threshold, ".0%"),
                    )
                if needs_exits(fight):  # the chance of any way out alive
                    text = tr(
                        "{who} leaves the fight against {enemies} alive {how}",
                        who=who, enemies=enemy_names(fight), how=how,
                    )  # fmt: skip
                else:
                    text = tr(
                        "{who} wins the fight against {enemies} {how}",
                        who=who, enemies=enemy_names(fight), how=how,
                    )  # fmt: skip
                text, more = _without_items(text, report, "median", class_name)
                data.update(more)
                found.append(
                    finding(
                        "W030",
                        text,
                        fight.span,
                        paragraph=report.paragraph,
                        hint=tr(
                            "weaken the enemies, or raise validator.fight_threshold "
                            "in book.yaml if the fight is meant to be deadly"
                        ),
                        **data,
                    )
                )
    return found


def _without_items(text, report: FightReport, level: str, class_name: str | None):
    """A weak-fight message judged on the items every path carries, naming the items some
    path brings that would change it, with the chance they give (and the finding's data)."""
    carried = report.carried
    if not report.best or carried is None or not carried.changing:
        return text, {}
    if class_name is None and level == "strongest":
        wins = [o.win for o in report.best if o.hero.level == level]
        win = max(wins, default=None)
    else:
        win = report.best_loadout_win(level, class_name)
    if win is None:
        return text, {}
    items = ", ".join(carried.changing)
    message = ntr(
        "{text}, without {items} ({win} with it)",
        "{text}, without {items} ({win} with them)",
        len(carried.changing),
        text=text,
        items=items,
        win=localised(win, ".1%"),
    )
    return message, {"items": list(carried.changing), "best_loadout_win": round(win, 6)}


def fights_budget(reports: list[FightReport], seconds: float | None) -> list[Finding]:
    """I051 when the fight odds stopped at their time budget."""
    cut = sum(1 for report in reports if report.error == CUT)
    if not cut:
        return []
    what = tr("fight odds")
    return [budget_finding(what, len(reports) - cut, len(reports), seconds)]
