"""Exact odds of a book's d20 fights (procedure ``d20``) for the validator's heroes.

The heroes are the estimate's own (:class:`dedale.validator.simulate.FightSimulator`: each
profile's stats, the rest worked out by character creation, the class kit and the items the
start paragraph gives every reader), each fight is the interpreter's own ``FightSpec``
(``dedale.game.rehearsal``), and its odds come from :mod:`dedale.rules.odds_d20`: the chance
to leave the fight alive (won, the assault limit reached, escaped when that is the better
choice), the target of enemies fought together chosen at best. Duels without an exit read
one :class:`~dedale.rules.odds_d20_duel.DuelTable` per pair of fighters, shared by every
duel of the book between the same hero and the same kind of enemy.

Fights the book acts in (rules under an enemy, events, exits, "after N assaults won", an
assault table) are exact through :mod:`dedale.rules.odds_d20_acting` (the plan:
:mod:`dedale.validator.fight_plan_d20`). Still estimated, and saying why (I115): fights with
allies or effects those odds do not follow, and fights past the exact budget.
"""

from __future__ import annotations

from typing import Any

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import tr
from dedale.validator.budget import Deadline
from dedale.validator.fights import CUT, FightReport, Odds, overall

STATES = 20_000
"""The validator's budget of one d20 fight's exact odds (``dedale odds`` and the solver: 60,000)."""
SECONDS = 1.0
"""... and its CPU time for one hero (past either: the estimate, with I115 saying why)."""


class D20Calculator:
    """The exact rows of d20 fights, memoised per line-up and hero."""

    def __init__(self, simulator: Any) -> None:
        self.simulator = simulator
        self.rehearsal = simulator.rehearsal
        self.cache: dict[tuple, float] = {}
        self.tables: dict[tuple, Any] = {}
        self.carried: frozenset[str] = frozenset()  # the best loadout (book_loadout)
        self.codewords: frozenset[str] = frozenset()
        #: which destinations are death endings (validator.death_ways; None: not known)
        self.deadly: Any = None

    def acting_odds(self, fight: ast.Fight) -> tuple[Odds, ...]:
        """The rows of a fight the book acts in (rules/odds_d20_acting.py); raises
        Unsupported for what they do not follow, D20OddsTooLarge past the budget."""
        from dedale.rules.odds_d20_acting import d20_acting_odds
        from dedale.validator.fight_plan_d20 import d20_plan_of

        spec = self.rehearsal.spec(fight)
        ruleset = self.rehearsal.ruleset(fight)
        rows = []
        for hero, character in self.simulator.heroes:
            plan = d20_plan_of(fight, ruleset, dict(character.stats), self.carried,
                               self.codewords, self.deadly)  # fmt: skip
            alive = d20_acting_odds(
                ruleset, character, spec, plan, budget=STATES, seconds=SECONDS
            ).alive_probability
            for luck in self.simulator.policies:  # a d20 fight never asks about Luck
                rows.append(Odds(hero, luck, alive))
        if any(odds.hero.class_name for odds in rows):
            rows = overall(rows) + rows
        return tuple(rows)

    def odds(self, fight: ast.Fight, threshold: int | None = None) -> tuple[Odds, ...]:
        """The rows of ``fight`` (raises D20OddsTooLarge past the budget, GameError on an
        enemy the fight cannot set up); ``threshold``: its "when your HP falls to N"."""
        from dedale.validator.death_ways import doomed_ways
        from dedale.validator.simulate import _lineup

        spec = self.rehearsal.spec(fight)
        ruleset = self.rehearsal.ruleset(fight)
        line_up = _lineup(spec, fight)
        doomed = doomed_ways(fight, self.deadly)  # ways out to a death ending: defeats
        rows = []
        for index, (hero, character) in enumerate(self.simulator.heroes):
            key = (line_up, index, threshold, doomed)
            if key not in self.cache:
                self.cache[key] = self._alive(ruleset, character, spec, threshold, doomed)
            for luck in self.simulator.policies:  # a d20 fight never asks about Luck
                rows.append(Odds(hero, luck, self.cache[key]))
        if any(odds.hero.class_name for odds in rows):
            rows = overall(rows) + rows
        return tuple(rows)

    def _alive(self, ruleset, character, spec, threshold: int | None = None,
               doomed: frozenset[str] = frozenset()) -> float:  # fmt: skip
        from dedale.rules.fight_d20 import fighters
        from dedale.rules.odds_d20 import d20_odds
        from dedale.rules.odds_d20_attack import attack_law, law_key
        from dedale.rules.odds_d20_duel import DuelTable

        plain = spec.assault_limit is None and spec.escape_after is None and threshold is None
        if plain and not any(e.dice_stats for e in spec.enemies):
            hero, enemies = fighters(ruleset, character, spec)
            if len(enemies) == 1:  # a duel: one shared table per pair of fighters
                params, enemy = ruleset.fight, enemies[0]
                key = (law_key(params, hero, enemy), law_key(params, enemy, hero))
                table = self.tables.get(key)
                if table is None:
                    table = self.tables[key] = DuelTable(
                        attack_law(params, hero, enemy), attack_law(params, enemy, hero)
                    )
                return table.win(hero.health, enemy.health)
        found = d20_odds(
            ruleset, character, spec, target="best", threshold=threshold, budget=STATES,
            seconds=SECONDS, doomed=doomed,
        )  # fmt: skip
        return found.alive_probability


def d20_fight_reports(
    graph: Any, book: Any, fights: list[tuple[int, ast.Fight]], seed: int, seconds: float | None
) -> list[FightReport]:
    """The reports of a d20 book's fights (see the module docstring)."""
    from dedale.rules.odds_d20_attack import D20OddsTooLarge
    from dedale.validator.death_ways import counted_deaths, deadly
    from dedale.validator.fight_plan import Unsupported
    from dedale.validator.fights import _estimated, _reason, book_loadout, hero_profiles, start_kit
    from dedale.validator.simulate import FightSimulator

    try:
        simulator = FightSimulator(
            book, hero_profiles(book.ruleset), seed, kit=start_kit(graph, book), fights=len(fights)
        )
    except (DedaleError, KeyError, ValueError, AttributeError) as error:
        return [FightReport(n, f, (), _reason(error), supported=False) for n, f in fights]
    calculator = D20Calculator(simulator)
    calculator.carried, calculator.codewords = book_loadout(graph, book.ruleset)
    calculator.deadly = deadly(graph, book)  # ways out to a death ending
    cache = [simulator]  # the estimates use the same heroes
    seeds = (seed, len(fights))
    reports = []
    deadline = Deadline(seconds)
    for number, fight in fights:
        if deadline.passed():
            reports.append(FightReport(number, fight, (), CUT, supported=False))
            continue
        try:
            threshold = health_threshold(fight, book.ruleset)
            acts = fight.allies or calculator.rehearsal.by_assault(fight)
            try:
                if acts and threshold is None:  # the book acts inside the fight
                    rows = calculator.acting_odds(fight)
                else:
                    rows = calculator.odds(fight, threshold)
                deaths = counted_deaths(fight, calculator.deadly, book)
                reports.append(FightReport(number, fight, rows, death_ways=deaths))
            except Unsupported as error:  # what the exact odds do not follow: I115 says it
                why = tr("the book acts inside this d20 fight: {reason}", reason=_reason(error))
                report = _estimated(cache, graph, book, seeds, number, fight, why)
                reports.append(_because(report, why))
            except D20OddsTooLarge as error:  # I115: estimated, saying why
                report = _estimated(cache, graph, book, seeds, number, fight, error.message)
                reports.append(_because(report, error.message))
        except (DedaleError, KeyError, ValueError) as error:
            reports.append(FightReport(number, fight, (), _reason(error)))
    return reports


def health_threshold(fight: ast.Fight, ruleset: Any) -> int | None:
    """The N of a fight whose only way the book acts in it is "when your HP falls to N or
    less -> X" on the fight's own health stat (its exact odds follow it), else None."""
    threshold = fight.threshold
    if threshold is None or fight.win_assaults is not None or fight.allies:
        return None
    if fight.assault_table is not None or getattr(fight, "rules", ()):
        return None
    found = ruleset.resolve(threshold.stat)
    if found is None or found != ("stat", ruleset.fight.health):
        return None
    return threshold.value


def _because(report: FightReport, why: str) -> FightReport:
    import dataclasses

    return dataclasses.replace(report, estimated_because=why) if report.odds else report
