"""Stats and counters along the paths (issue 14.6): what no path can afford, meet or use.

From the bounds of :mod:`dedale.validator.intervals` (the lowest and highest value of each
stat and counter on the paths to each place):

- W080: a choice's cost no path can pay (``(pay 20 gold)`` with at most 12 gold);
- W081: a stat or counter condition no hero meets (``(if SKILL >= 13)``);
- W082: a gain that does nothing (``gain 2 SKILL`` where SKILL is at its initial value on
  every path, without ``(exceptional)``);
- W083: a meal eaten (or a forced meal) where no path has a meal left;
- W084: a loss that kills every hero, in a paragraph from which victory could be reached.

Each message names the bound and a path that shows it (paragraph numbers).
"""

from __future__ import annotations

from dedale import ast
from dedale.i18n import tr
from dedale.i18n.french import of
from dedale.validator.budget import STATES_SECONDS, budget_finding
from dedale.validator.findings import Finding, finding
from dedale.validator.graph import Graph, atoms, conditions, walk
from dedale.validator.intervals import INF, Analysis, Site, analyse

PATH_SHOWN = 12  # paragraphs of a path shown in full; longer ones are elided in the middle


def shown_path(path: list[int]) -> str:
    """``1 → 4 → 9``, the middle elided past :data:`PATH_SHOWN` paragraphs."""
    numbers = [str(n) for n in path]
    if len(numbers) > PATH_SHOWN:
        numbers = [*numbers[:4], "…", *numbers[-(PATH_SHOWN - 5) :]]
    return " → ".join(numbers)


def _name(analysis: Analysis, site: Site) -> str:
    return site.written or analysis.ruleset.display_name(site.name, _lang(analysis.book))


def _lang(book: object) -> str:
    meta = getattr(book, "meta", None)
    lang = meta.get("language") if isinstance(meta, dict) else getattr(meta, "language", None)
    return str(lang or "en")


def _cost(analysis: Analysis, site: Site) -> Finding | None:
    if site.most < 0 or site.most >= site.amount:
        return None
    name = _name(analysis, site)
    params = {
        "amount": site.amount,
        "name": name,
        "most": site.most,
        "number": site.paragraph,
        "path": shown_path(analysis.path(site.paragraph)),
    }
    if site.kind == "stake":
        message = tr(
            "nothing to stake here: {name} is 0 on every path to paragraph {number} "
            "(e.g. {path}), so the bet is never offered",
            **params,
        )
    else:
        message = tr(
            "no path can pay {amount} {name} here: at most {most} on every path to "
            "paragraph {number} (e.g. {path})",
            **params,
        )
        if site.kind == "purchase":
            message = tr("{reason}: this purchase is never possible", reason=message)
    if site.kind == "stake":
        hint = tr(
            "give some {name} on the way here, or remove the bet", name=name, of_name=of(name)
        )
    else:
        hint = tr(
            "give more {name} on the way here, or lower the price", name=name, of_name=of(name)
        )
    return finding("W080", message, site.span, paragraph=site.paragraph, hint=hint)


def _condition(analysis: Analysis, site: Site) -> Finding | None:
    if site.most < 0 or site.possible:
        return None
    name, path = _name(analysis, site), shown_path(analysis.path(site.paragraph))
    if site.most >= INF:
        where = tr(
            "{name} is at least {least} on every path to paragraph {number} (e.g. {path})",
            name=name,
            least=site.least,
            number=site.paragraph,
            path=path,
        )
    else:
        where = tr(
            "{name} is between {least} and {most} on every path to paragraph {number} "
            "(e.g. {path})",
            name=name,
            least=site.least,
            most=site.most,
            number=site.paragraph,
            path=path,
        )
    return finding(
        "W081",
        tr("no hero meets this condition: {where}", where=where),
        site.span,
        paragraph=site.paragraph,
        hint=tr("change the number, or let the hero gain {name} on the way here", name=name),
    )


def _gain(analysis: Analysis, site: Site) -> Finding | None:
    if site.most < 0 or site.below:
        return None
    name = _name(analysis, site)
    return finding(
        "W082",
        tr(
            "this gain does nothing: {name} is at its initial value on every path to "
            "paragraph {number} (e.g. {path}), and a gain stops at the initial value",
            name=name,
            number=site.paragraph,
            path=shown_path(analysis.path(site.paragraph)),
        ),
        site.span,
        paragraph=site.paragraph,
        hint=tr("write `(exceptional)` / `(exceptionnel)` after it to go above the initial value"),
    )


def _meal(analysis: Analysis, site: Site) -> Finding | None:
    if site.most != 0:
        return None
    path = shown_path(analysis.path(site.paragraph))
    if site.kind == "meal":
        message = tr(
            "no meal is left here on any path to paragraph {number} (e.g. {path}): "
            "the penalty always applies",
            number=site.paragraph,
            path=path,
        )
    else:
        message = tr(
            "no meal is left here on any path to paragraph {number} (e.g. {path}): "
            "this meal is never eaten",
            number=site.paragraph,
            path=path,
        )
    return finding(
        "W083",
        message,
        site.span,
        paragraph=site.paragraph,
        hint=tr("give the hero provisions on the way here, or remove the meal"),
    )


def _loss(analysis: Analysis, site: Site, to_victory: set[int]) -> Finding | None:
    if site.most != 0 or site.paragraph not in to_victory:
        return None
    paragraph = analysis.graph.nodes[site.paragraph].paragraph
    if all(statement.span != site.span for statement in paragraph.body):
        return None  # inside a branch: the other branches may go on
    return finding(
        "W084",
        tr(
            "this loss kills every hero: {name} is at most {most} on every path to "
            "paragraph {number} (e.g. {path}), so the ways on to victory from here are "
            "never taken",
            name=_name(analysis, site),
            most=site.amount,
            number=site.paragraph,
            path=shown_path(analysis.path(site.paragraph)),
        ),
        site.span,
        paragraph=site.paragraph,
        hint=tr("lower the loss, or end the paragraph with `> death` if it is meant to kill"),
    )


def resource_findings(analysis: Analysis) -> list[Finding]:
    """W080-W084 from a finished analysis."""
    graph = analysis.graph
    victories = [n for n, node in graph.nodes.items() if "victory" in node.endings]
    to_victory = graph.reaching(victories)
    found: list[Finding | None] = []
    for site in analysis.sites.values():
        if site.kind in ("cost", "purchase", "stake"):
            found.append(_cost(analysis, site))
        elif site.kind == "condition":
            found.append(_condition(analysis, site))
        elif site.kind == "gain":
            found.append(_gain(analysis, site))
        elif site.kind in ("meal", "meal-loss"):
            found.append(_meal(analysis, site))
        elif site.kind == "loss":
            found.append(_loss(analysis, site, to_victory))
    return [item for item in found if item is not None]


_VALUE_DIRECTIVES = (ast.ChangeValue, ast.ForcedMeal, ast.StatusOn, ast.Shop, ast.Wager)


def changes_values(graph: Graph) -> bool:
    """Whether some paragraph changes a stat or counter, pays with one or tests one."""
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, _VALUE_DIRECTIVES):
                return True
            if isinstance(statement, ast.Choice) and any(c.counter for c in statement.costs):
                return True
        for condition in conditions(node.paragraph.body):
            if any(isinstance(atom, ast.Compare) for atom in atoms(condition)):
                return True
    return False


def check_resources(
    graph: Graph, book: object, hidden: tuple[int, ...], seconds: float | None = STATES_SECONDS
) -> tuple[list[Finding], Analysis | None]:
    """W080-W084 (I051 when the analysis stops at its budget), and the analysis itself
    (None when no directive of the book changes or tests a stat or counter: nothing to
    follow)."""
    if not changes_values(graph):
        return [], None
    analysis = analyse(graph, book, walk, hidden, seconds)
    if analysis is None:
        return [], None
    if analysis.timed_out:
        what = tr("bounds of stats and counters (W080-W084)")
        steps = len(analysis.entry)
        return [budget_finding(what, steps, None, seconds, tr("paragraphs"))], analysis
    if not analysis.complete:
        message = tr(
            "the bounds of stats and counters still moved after {steps} paragraph visits: "
            "W080-W084 skipped",
            steps=analysis.steps,
        )
        return [finding("I050", message, None)], analysis
    return resource_findings(analysis), analysis
