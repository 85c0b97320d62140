"""Exact odds of reliques fights for the validator's heroes (:mod:`dedale.rules.odds_reliques`).

The heroes are the weakest, median and strongest profiles of :func:`hero_profiles`, each
made by character creation (health from its own rolls) and given the items the start
paragraph hands every reader, as the estimate does (:mod:`dedale.validator.simulate`); the
fight is the interpreter's own ``FightSpec`` of the paragraph. Rows: ``none`` (no heroism
point spent) and ``best`` (spent at best) when the ruleset has a heroism counter that
cancels a loss; every other choice of the hero (dodge or parry, target, escape) is at best
in both. Fights the DP does not follow (the book acting inside the fight, allies, enemy
stats as dice) raise :class:`Unsupported`: they stay estimated.
"""

from __future__ import annotations

from typing import Any

from dedale import ast
from dedale.i18n import tr
from dedale.validator.fights import FightReport, Hero, Odds, hero_profiles, overall, start_kit
from dedale.validator.graph import Graph

SECONDS = 2.0
"""CPU seconds of one fight's DP at most (then its odds are estimated; I115 says why)."""
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
        kit = start_kit(graph)
        for profile in hero_profiles(self.ruleset):
            character = create_character(
                self.ruleset, RandomSource(0), profile.class_name, fixed=dict(profile.stats)
            )
            self.rehearsal.equip(character, kit, _KeepFirst())
            stats = tuple(sorted(character.stats.items()))
            self.heroes.append((Hero(profile.level, profile.class_name, stats), character))
        self.cache: dict[tuple, tuple[Odds, ...]] = {}
        self.models: dict = {}  # one DP per fight whatever its enemies' names

    def odds(self, fight: ast.Fight) -> tuple[Odds, ...]:
        """The exact rows of ``fight`` (raises Unsupported, or ReliquesOddsTooLarge)."""
        from dedale.rules.odds_reliques import reliques_wins
        from dedale.validator.simulate import _lineup

        if fight.allies:
            raise Unsupported(tr("fights with allies have no exact odds"))
        if self.rehearsal.by_assault(fight):
            raise Unsupported(tr("the book acts inside this fight (rules, thresholds, tables)"))
        spec = self.rehearsal.spec(fight)
        if any(enemy.dice_stats for enemy in spec.enemies):
            raise Unsupported(tr("enemy stats written as dice"))
        ruleset = self.rehearsal.ruleset(fight)
        key = _lineup(spec, fight)
        found = self.cache.get(key)
        if found is not None:
            return found
        rows = []
        for hero, character in self.heroes:
            wins = reliques_wins(
                ruleset,
                character.copy(),
                spec,
                max_nodes=MAX_NODES,
                seconds=SECONDS,
                models=self.models,
            )
            rows += [Odds(hero, policy, wins[policy]) for policy in self.policies]
        if any(odds.hero.class_name for odds in rows):
            rows = overall(rows) + rows
        found = self.cache[key] = tuple(rows)
        return found


def reliques_report(
    calculators: list, graph: Graph, book: Any, number: int, fight: ast.Fight
) -> FightReport | str | None:
    """The exact report of a reliques fight; a ``str`` when too large (why: the caller
    estimates it, I115), None when the exact odds do not follow it (estimated)."""
    from dedale.rules.odds_reliques import ReliquesOddsTooLarge

    if not calculators:
        calculators.append(ReliquesCalculator(graph, book))
    try:
        return FightReport(number, fight, calculators[0].odds(fight))
    except Unsupported:
        return None
    except ReliquesOddsTooLarge as error:
        return str(error.message)
