"""Exact fight odds for every fight of a book, for the heroes the ruleset can roll.

For each fight: the chance of winning for the weakest, the median and the strongest hero
(every stat at its minimum, median or maximum roll), for each class (with its abilities
and kit) and overall, with no Luck and with the best Luck policy, computed exactly by
``dedale.rules.odds.fight_odds``.
Fights with no exact method (fights past a DP's budget, what the DPs do not follow) are
estimated by a seeded simulation of the real fight code (:mod:`dedale.validator.simulate`);
their rows carry the sample size and a 95% margin.
W030 when the median hero (of any class) wins less often than the threshold of book.yaml
(default 5%) even with the best Luck; W031 when even the strongest hero cannot win.

The hero profiles and the rows are in :mod:`dedale.validator.fight_rows`, the exact odds of
one fight in :mod:`dedale.validator.fight_calculator`; their names are re-exported here.
"""

from __future__ import annotations

import dataclasses

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import Message, tr
from dedale.validator.budget import FIGHTS_SECONDS, Deadline
from dedale.validator.carried import AttackShifts, ItemBook, carried_at
from dedale.validator.death_ways import counted_deaths, deadly
from dedale.validator.fight_calculator import (
    EXACT_MODES,
    OddsCalculator,
    Unsupported,
    book_loadout,
    class_fight_kit,
)
from dedale.validator.fight_plan import Unsupported as PlanUnsupported
from dedale.validator.fight_rows import (
    CUT,
    LEVELS,
    POLICIES,
    FightReport,
    Hero,
    Odds,
    enemy_names,
    hero_profiles,
    median,
    overall,
)
from dedale.validator.graph import Graph, walk

__all__ = [
    "CUT",
    "EXACT_MODES",
    "LEVELS",
    "POLICIES",
    "FightReport",
    "Hero",
    "Odds",
    "OddsCalculator",
    "Unsupported",
    "book_loadout",
    "class_fight_kit",
    "enemy_names",
    "fight_reports",
    "hero_profiles",
    "median",
    "overall",
    "start_kit",
]


def fight_reports(
    graph: Graph,
    book: object,
    seed: int = 0,
    seconds: float | None = FIGHTS_SECONDS,
    hidden: tuple[int, ...] = (),
) -> list[FightReport]:
    """The odds of every fight of the book, in paragraph order: exact where the rules core
    has a method, else estimated by a seeded simulation of the real fight code
    (:mod:`dedale.validator.simulate`, seeded with ``seed``). Past ``seconds`` the fights
    left get no odds (their error is ``CUT``; see :func:`fights_budget`). Exact odds take
    the items the hero carries there (:mod:`dedale.validator.carried`; ``hidden``: the
    paragraphs a reader may also open directly)."""
    fights = [
        (number, statement)
        for number in sorted(graph.nodes)
        for statement in walk(graph.nodes[number].paragraph.body)
        if isinstance(statement, ast.Fight)
    ]
    if not fights:
        return []
    ruleset = getattr(book, "ruleset", None)
    from dedale.rules.ruleset import D20Fight

    if isinstance(getattr(ruleset, "fight", None), D20Fight):  # exact d20 odds: their module
        from dedale.validator.fights_d20 import d20_fight_reports

        return d20_fight_reports(graph, book, fights, seed, seconds)
    calculators: dict[str | None, OddsCalculator] = {}
    reason = None
    given: list[ast.GainItem] = []
    try:
        calculators[None] = OddsCalculator(ruleset)
        calculators[None].carried, calculators[None].codewords = book_loadout(graph, ruleset, given)
        calculators[None].deadly = deadly(graph, book)  # ways out to a death ending
    except (ImportError, Unsupported) as error:
        reason = _reason(error)
    held: dict = {}
    shifts = None
    if None in calculators:
        from dedale.validator.loadout import loadouts

        shifts = AttackShifts(ruleset, ItemBook(graph, book, given))
        stat = calculators[None].params.attack_stat
        classes = {hero.class_name for hero in calculators[None].heroes}
        if shifts.items.effects or any(shifts(frozenset(), c, stat) for c in classes):
            held = loadouts(graph, book, hidden)
        else:  # no item bonus, and armed by the kit or no unarmed penalty: items change nothing
            shifts = None
    simulator: list = []  # built on the first fight that needs it (imports the interpreter)
    reliques: list = []  # the same, for the exact odds of reliques fights
    from dedale.rules.odds_inputs import OddsTooLarge
    from dedale.validator.fights_allies import exact_allies

    estimated = sum(
        1
        for _, fight in fights
        if None not in calculators or fight.mode not in EXACT_MODES or not exact_allies(fight)
    )
    reports = []
    deadline = Deadline(seconds)
    for number, fight in fights:
        if deadline.passed():
            reports.append(FightReport(number, fight, (), CUT, supported=False))
            continue
        why = None
        try:
            if None in calculators and fight.mode in EXACT_MODES and exact_allies(fight):
                stat = _attack_stat(ruleset, fight)
                if stat not in calculators:  # "attack with MAGIC": that stat replaces SKILL
                    changed = dataclasses.replace(ruleset.fight, attack_stat=stat)
                    calculators[stat] = OddsCalculator(dataclasses.replace(ruleset, fight=changed))
                    calculators[stat].carried = calculators[None].carried
                    calculators[stat].codewords = calculators[None].codewords
                    calculators[stat].deadly = calculators[None].deadly
                try:
                    calculator = calculators[stat]
                    loadout = held.get(fight.span)
                    report = _loadout_report(calculator, number, fight, loadout, shifts)
                    deaths = counted_deaths(fight, calculator.deadly, book)
                    reports.append(dataclasses.replace(report, death_ways=deaths))
                    continue
                except PlanUnsupported as error:  # what the exact odds with exits cannot follow
                    why = _reason(error)
                except OddsTooLarge as error:  # at once, or with allies: too many states
                    if fight.mode != "together" and not fight.allies:
                        raise
                    report = _estimated(
                        simulator, graph, book, (seed, estimated), number, fight, error.message
                    )
                    exact = _with_exact_rows(report, calculator, fight, loadout, shifts)
                    # I115 says why (the whole fight, or only its best-Luck rows: never a
                    # bare ≈)
                    reports.append(dataclasses.replace(exact, estimated_because=error.message))
                    continue
            too_large = None
            if _is_reliques(ruleset):  # exact: dedale.validator.fights_reliques
                from dedale.validator.fights_reliques import reliques_report

                found = reliques_report(reliques, graph, book, number, fight)
                if isinstance(found, FightReport):
                    reports.append(found)
                    continue
                why = too_large = found  # too many states (or None): estimated, I115 says why
            why = (
                why
                or reason
                or (
                    tr("fights with allies have no exact odds")
                    if fight.allies
                    else tr("no exact odds for the '{mode}' mode", mode=fight.mode)
                )
            )
            report = _estimated(simulator, graph, book, (seed, estimated), number, fight, why)
            if too_large is not None:
                report = dataclasses.replace(report, estimated_because=too_large)
            reports.append(report)
        except Unsupported as error:
            reports.append(FightReport(number, fight, (), _reason(error), supported=False))
        except (DedaleError, KeyError, ValueError) as error:
            reports.append(FightReport(number, fight, (), _reason(error)))
    return reports


def _is_reliques(ruleset: object) -> bool:
    """Whether the fights are reliques fights (their exact odds: validator.fights_reliques)."""
    from dedale.rules.ruleset import ReliquesFight

    return isinstance(getattr(ruleset, "fight", None), ReliquesFight)


def _with_exact_rows(report: FightReport, calculator: OddsCalculator, fight, loadout, shifts):
    """An estimated report of a fight at once whose best-Luck odds had too many states:
    the rows without Luck exact where they fit the budget, the best-Luck estimates never
    below them (best Luck is a maximum: not testing Luck is one of its choices)."""
    if "best" not in calculator.policies or not report.odds:
        return report
    policies = calculator.policies
    calculator.policies = ("none",)
    try:
        exact = _loadout_report(calculator, report.paragraph, fight, loadout, shifts).odds
    except (DedaleError, KeyError, ValueError, PlanUnsupported):
        return report
    finally:
        calculator.policies = policies
    plain = {odds.hero: odds for odds in exact}
    finished = _finished_best_rows(report, calculator, fight, loadout, shifts)
    rows = []
    for odds in report.odds:
        found = plain.get(odds.hero)
        if odds.luck == "best" and odds.hero in finished:
            rows.append(finished[odds.hero])  # exact: its DP finished before the budget ran out
        elif found is None:
            rows.append(odds)
        elif odds.luck == "none":
            rows.append(found)
        else:
            rows.append(dataclasses.replace(odds, win=max(odds.win, found.win)))
    return dataclasses.replace(report, odds=tuple(rows))


def _finished_best_rows(report: FightReport, calculator: OddsCalculator, fight, loadout,
                        shifts) -> dict:  # fmt: skip
    """The best-Luck rows whose exact DP finished before another hero's ran past the
    budget (the weaker heroes, computed first), by hero: kept exact rather than estimated.
    Not with classes (their overall rows need every class)."""
    if any(hero.class_name for hero in calculator.heroes):
        return {}
    policies = calculator.policies
    calculator.policies, calculator.cached_only = ("best",), True
    try:
        rows = _loadout_report(calculator, report.paragraph, fight, loadout, shifts).odds
    except (DedaleError, KeyError, ValueError, PlanUnsupported):
        return {}
    finally:
        calculator.policies, calculator.cached_only = policies, False
    return {odds.hero: odds for odds in rows if odds.luck == "best"}


def _loadout_report(calculator: OddsCalculator, number: int, fight, loadout, shifts):
    """The exact odds of a fight with the items surely held there, and with the best
    loadout a reachable path brings when it changes some hero's attack (``shifts`` None:
    no item of the book changes a fight)."""
    if shifts is None:
        return FightReport(number, fight, calculator.odds(fight))
    stat = calculator.params.attack_stat
    classes = tuple(dict.fromkeys(hero.class_name for hero in calculator.heroes))
    carried = carried_at(loadout, shifts, classes, stat)
    worst = calculator.odds(fight, lambda hero: shifts(carried.surely, hero.class_name, stat))
    best: tuple[Odds, ...] = ()
    if any(shifts(carried.best, c, stat) != shifts(carried.surely, c, stat) for c in classes):
        best = calculator.odds(fight, lambda hero: shifts(carried.best, hero.class_name, stat))
        if all(abs(a.win - b.win) < 1e-12 for a, b in zip(worst, best, strict=True)):
            best = ()  # the items help the attack but change no figure (a sure win already)
    return FightReport(number, fight, worst, best=best, carried=carried)


def _reason(error: Exception) -> str:
    """Why a fight has no odds: the error's (translatable) message, else its type's name."""
    if isinstance(error, DedaleError):
        return error.message
    first = error.args[0] if error.args else None
    return first if isinstance(first, Message) else str(error) or type(error).__name__


def _estimated(simulator: list, graph: Graph, book, seeds, number: int, fight, why: str):
    """The estimated odds of a fight with no exact method (``why``: shown if the
    simulation itself is impossible, e.g. a ruleset whose heroes cannot be created)."""
    if not simulator:
        try:
            from dedale.validator.simulate import FightSimulator

            heroes = hero_profiles(book.ruleset)
            seed, count = seeds  # count: the fights to estimate (for the book's budget)
            kit = start_kit(graph, book)
            simulator.append(FightSimulator(book, heroes, seed, kit=kit, fights=count))
        except (ImportError, DedaleError, KeyError, ValueError, AttributeError) as error:
            simulator.append(f"{why} ({error})")
    if isinstance(simulator[0], str):
        return FightReport(number, fight, (), simulator[0], supported=False)
    results = list(simulator[0].odds(number, fight))
    if any(odds.hero.class_name for odds in results):
        results = overall(results) + results
    return FightReport(number, fight, tuple(results))


def start_kit(graph: Graph, book: object = None) -> tuple[ast.GainItem, ...]:
    """The items every reader starts with: book.yaml's ``items:`` (``objets:``), then what
    the start paragraph gives (``> take`` at its top level)."""
    meta = getattr(book, "meta", None)
    given = tuple(getattr(meta, "items", None) or ())
    node = graph.nodes.get(graph.start)
    if node is None:
        return given
    return given + tuple(s for s in node.paragraph.body if isinstance(s, ast.GainItem))


def _attack_stat(ruleset: object, fight: ast.Fight) -> str | None:
    """The stat id a fight's ``attack with`` line names (None: the ruleset's own)."""
    if fight.attack_stat is None:
        return None
    found = ruleset.resolve(fight.attack_stat)  # type: ignore[attr-defined]
    if found is None or found[0] != "stat":
        raise ValueError(tr("'{name}' is not a stat", name=fight.attack_stat))
    return found[1]
