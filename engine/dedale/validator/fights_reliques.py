"""Exact odds of reliques fights for the validator's heroes (:mod:`dedale.rules.odds_reliques`).

The heroes are the weakest, median and strongest profiles of :func:`hero_profiles`, each
made by character creation (health from its own rolls) and given the items the start
paragraph hands every reader, as the estimate does (:mod:`dedale.validator.simulate`); the
fight is the interpreter's own ``FightSpec`` of the paragraph. Rows: ``none`` (no heroism
point spent) and ``best`` (spent at best) when the ruleset has a heroism counter that
cancels a loss; every other choice of the hero (dodge or parry, target, escape) is at best
in both. Enemy stats written as dice are rolled when the fight starts: the rows are the mix
of the exact rows of every line-up they can give, each weighted by its exact chance (as
:mod:`dedale.validator.enemy_dice` mixes FF fights). Fights the DP does not follow (the book
acting inside the fight, allies) raise :class:`Unsupported`: they stay estimated, but for
"when your health falls to N or less -> X" alone (the fight's health stat), which the DP
follows (:func:`dedale.rules.odds_reliques.reliques_odds`), and "after N assaults won".
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from dedale import ast
from dedale.i18n import Message, tr
from dedale.validator.fights import FightReport, Hero, Odds, hero_profiles, overall, start_kit
from dedale.validator.graph import Graph

SECONDS = 2.0
"""CPU seconds of one fight's DP at most, per hero (then its odds are estimated; I115 says
why); a fight whose enemy stats are dice shares them among its line-ups."""
MAX_NODES = 400_000
"""States of one fight's DP at most (the same)."""


class Unsupported(Exception):
    """The exact reliques odds do not follow this fight."""


class _KeepFirst:
    """Inventory over its limit while the kit is handed out: drop the last item."""

    def answer(self, prompt: Any) -> object:
        return prompt.items[-1]


class ReliquesCalculator:
    """Exact rows of reliques fights, memoised per line-up and hero."""

    def __init__(self, graph: Graph, book: Any) -> None:
        from dedale.game.rehearsal import FightRehearsal
        from dedale.rules import RandomSource, create_character

        self.book = book
        self.ruleset = book.ruleset
        self.rehearsal = FightRehearsal(book, 0)
        heroism = self.ruleset.heroism or {}
        self.policies = ("none", "best") if heroism.get("ignore_loss") else ("none",)
        self.heroes: list[tuple[Hero, Any]] = []
        kit = start_kit(graph, book)
        for profile in hero_profiles(self.ruleset):
            character = create_character(
                self.ruleset, RandomSource(0), profile.class_name, fixed=dict(profile.stats)
            )
            self.rehearsal.equip(character, kit, _KeepFirst())
            stats = tuple(sorted(character.stats.items()))
            self.heroes.append((Hero(profile.level, profile.class_name, stats), character))
        self.cache: dict[tuple, tuple[Odds, ...]] = {}
        self.models: dict = {}  # one DP per fight whatever its enemies' names
        from dedale.validator.death_ways import deadly

        self.deadly = deadly(graph, book)  # ways out to a death ending: defeats

    def odds(self, fight: ast.Fight) -> tuple[Odds, ...]:
        """The exact rows of ``fight`` (raises Unsupported, or ReliquesOddsTooLarge)."""
        from dedale.rules.odds_reliques import (
            ReliquesOddsTooLarge,
            reliques_wins,
            rolled_line_ups,
        )
        from dedale.validator.death_ways import doomed_ways
        from dedale.validator.simulate import _lineup

        if fight.allies:
            raise Unsupported(tr("fights with allies have no exact odds"))
        spec = self.rehearsal.spec(fight)
        ruleset = self.rehearsal.ruleset(fight)
        threshold, needed = None, None
        if self.rehearsal.by_assault(fight):
            threshold, needed = self._extras(fight, ruleset)
        doomed = doomed_ways(fight, self.deadly)
        key = (_lineup(spec, fight), doomed)  # with the enemies' dice
        found = self.cache.get(key)
        if found is not None:
            return found
        line_ups = rolled_line_ups(spec)  # at most MAX_LINE_UPS (36): else I115
        deadline = time.process_time() + SECONDS * len(self.heroes)
        rows = []
        for hero, character in self.heroes:
            wins = dict.fromkeys(self.policies, 0.0)
            for done, (rolled, chance) in enumerate(line_ups):  # dice: mix the line-ups
                left = deadline - time.process_time()
                out_of_time = ReliquesOddsTooLarge(
                    tr("the exact odds of this reliques fight ran out of time after "
                       "{count} of its {total} rolled line-ups",
                       count=done, total=len(line_ups)),
                    hint=tr("its odds are estimated by a seeded simulation instead"),
                )  # fmt: skip
                if left <= 0:
                    raise out_of_time
                try:
                    found = reliques_wins(
                        ruleset,
                        character.copy(),
                        rolled,
                        max_nodes=MAX_NODES,
                        seconds=min(SECONDS, left),
                        models=self.models,
                        threshold=threshold,
                        win_assaults=needed,
                        doomed=doomed,
                    )
                except ReliquesOddsTooLarge:
                    if len(line_ups) > 1 and left < SECONDS:  # the mix's budget, not the DP's
                        raise out_of_time from None
                    raise
                for policy in self.policies:
                    wins[policy] += chance * found[policy]
            rows += [Odds(hero, policy, min(1.0, wins[policy])) for policy in self.policies]
        if any(odds.hero.class_name for odds in rows):
            rows = overall(rows) + rows
        found = self.cache[key] = tuple(rows)
        return found

    def _extras(self, fight: ast.Fight, ruleset) -> tuple[int | None, int | None]:
        """``(N, M)`` of the fight's "when your health falls to N or less" and "after M
        assaults won" when they are all the book does inside the fight (the DP follows
        them); else Unsupported."""
        threshold, needed = fight.threshold, fight.win_assaults
        plain = replace(fight, threshold=None, win_assaults=None)
        if self.rehearsal.by_assault(plain) or (needed is not None and needed.count < 1):
            raise Unsupported(tr("the book acts inside this fight (rules, thresholds, tables)"))
        if threshold is not None and ruleset.resolve(threshold.stat) != (
            "stat",
            ruleset.fight.health,
        ):
            raise Unsupported(tr("the book acts inside this fight (rules, thresholds, tables)"))
        return (
            None if threshold is None else threshold.value,
            None if needed is None else needed.count,
        )


_SHARED: list[tuple[Graph, Any, ReliquesCalculator]] = []  # the last book's calculator


def shared_calculator(graph: Graph, book: Any) -> ReliquesCalculator:
    """The calculator of this graph and book, made once: the fight table's DPs (its
    ``models``) are then the path of fights' (validator.fight_path_reliques), which reads
    the values they hold instead of solving each fight again. One book is kept."""
    for known_graph, known_book, calculator in _SHARED:
        if known_graph is graph and known_book is book:
            return calculator
    calculator = ReliquesCalculator(graph, book)
    _SHARED[:] = [(graph, book, calculator)]
    return calculator


def reliques_report(
    calculators: list, graph: Graph, book: Any, number: int, fight: ast.Fight
) -> FightReport | Message | None:
    """The exact report of a reliques fight; why not (a translatable message) when too
    large (the caller estimates it, I115), None when the exact odds do not follow it
    (estimated)."""
    from dedale.rules.odds_reliques import ReliquesOddsTooLarge

    if not calculators:
        calculators.append(shared_calculator(graph, book))
    from dedale.validator.death_ways import counted_deaths

    calculator = calculators[0]
    try:
        rows = calculator.odds(fight)
        deaths = counted_deaths(fight, calculator.deadly, book)
        return FightReport(number, fight, rows, death_ways=deaths)
    except Unsupported:
        return None
    except ReliquesOddsTooLarge as error:
        return error.message  # a Message: the I115 finding says it in the reader's language
