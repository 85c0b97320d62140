"""The exact odds of one fight for every hero profile: :class:`OddsCalculator` goes
through the rules core (``rules.odds.fight_odds``; with exits or per-enemy rules
``rules.odds_exits`` and ``rules.odds_group_exits``; with allies
:mod:`dedale.validator.fights_allies`) and caches each row."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

from dedale import ast
from dedale.i18n import tr
from dedale.validator.enemy_dice import mixed_win
from dedale.validator.fight_plan import needs_exits, plan_of
from dedale.validator.fight_rows import POLICIES, Hero, Odds, hero_profiles, overall
from dedale.validator.graph import Graph, walk

EXACT_MODES = ("single", "sequence", "as_one", "together")


class Unsupported(Exception):
    """The rules core has no exact odds for this ruleset or fight mode."""


class OddsCalculator:
    """Computes (and caches) fight odds through the rules core's ``fight_odds``."""

    def __init__(self, ruleset: object) -> None:
        from dedale.rules.odds import fight_odds
        from dedale.rules.ruleset import OpposedFight

        if not isinstance(getattr(ruleset, "fight", None), OpposedFight):
            raise Unsupported("exact odds exist only for opposed (FF-family) fights")
        self.ruleset = ruleset
        self.params = ruleset.fight
        luck_test = ruleset.tests.get(self.params.luck_test) if self.params.luck_test else None
        self.luck_stat = luck_test.stat if luck_test is not None else None
        # without a Luck test that costs Luck there is no Luck policy to compare
        has_luck = luck_test is not None and luck_test.cost > 0
        self.policies = POLICIES if has_luck else ("none",)
        self.heroes = hero_profiles(ruleset)
        self.cache: dict[tuple, float] = {}
        self.fight_odds = fight_odds
        self.carried: frozenset[str] = frozenset()  # see book_loadout
        self.codewords: frozenset[str] = frozenset()
        #: which destinations are death endings (validator.death_ways; None: not known)
        self.deadly = None
        #: rows already computed only (a fight past its budget keeps the exact ones it got)
        self.cached_only = False

    def odds(
        self, fight: ast.Fight, shift: Callable[[Hero], int] | None = None
    ) -> tuple[Odds, ...]:
        """The rows of ``fight``; ``shift`` gives what each hero's items add to his attack
        (:mod:`dedale.validator.carried`)."""
        if fight.mode not in EXACT_MODES:
            raise Unsupported(f"no exact odds for the '{fight.mode}' mode")
        enemies = self._enemies(fight)
        bonus = fight.attack_bonus + sum(modifier.value for modifier in fight.modifiers)
        mode = "sequence" if fight.mode == "single" else fight.mode
        exits = needs_exits(fight)
        allies = self._allies(fight)
        results = []
        for hero in self.heroes:
            own = bonus + (shift(hero) if shift is not None else 0)
            for luck in self.policies:
                key = (enemies, mode, own, fight.enemy_damage, hero, luck)
                if allies is not None:  # exact odds with allies: dedale.validator.fights_allies
                    key, compute = (key, allies, id(fight) if exits else None), allies[2]
                elif exits:  # the chance to leave the fight alive by any of its ways out
                    key = (key, id(fight))
                    compute = self._exit_compute
                else:
                    compute = self._compute
                if key not in self.cache and self.cached_only:
                    continue
                if key not in self.cache:
                    self.cache[key] = mixed_win(  # stats as dice: the mix of their line-ups
                        enemies,
                        lambda e, hero=hero, luck=luck, compute=compute, own=own: compute(
                            hero, luck, e, mode, own, fight
                        ),
                    )
                results.append(Odds(hero, luck, self.cache[key]))
        if any(odds.hero.class_name for odds in results):
            results = overall(results) + results
        return tuple(results)

    def _allies(self, fight: ast.Fight) -> tuple | None:
        """A fight's allies, whom the enemies strike and the DP that takes them (None: none)."""
        if not fight.allies:
            return None
        from dedale.validator.fights_allies import allies_of, ally_compute

        compute = functools.partial(ally_compute, self)
        return allies_of(self, fight), fight.struck, compute

    def _enemies(self, fight: ast.Fight) -> tuple[tuple[object, object, bool], ...]:
        attack, health = self.params.attack_stat, self.params.health
        enemies = []
        for enemy in fight.enemies:
            stats: dict[str, int] = {}
            for name, value in enemy.stats:
                found = self.ruleset.resolve(name)
                if found is not None and not isinstance(value, bool):  # a number, or dice
                    stats[found[1]] = value
            if attack not in stats or health not in stats:
                missing = attack if attack not in stats else health
                raise ValueError(tr("enemy {name} has no {stat}", name=enemy.name, stat=missing))
            enemies.append((stats[attack], stats[health], enemy.immune_instant_kill))
        return tuple(enemies)

    def _compute(self, hero: Hero, luck: str, enemies, mode, bonus, fight) -> float:
        skill, stamina = hero.get(self.params.attack_stat), hero.get(self.params.health)
        if skill is None or stamina is None:
            raise ValueError(tr("the ruleset's heroes have no fixed attack or health roll"))
        result = self.fight_odds(
            self.ruleset,
            skill,
            stamina,
            enemies,
            luck=hero.get(self.luck_stat) if self.luck_stat else None,
            luck_policy=luck,
            class_name=hero.class_name,
            mode=mode,
            attack_bonus=bonus,
            enemy_damage=fight.enemy_damage,
            win_only=True,
        )
        return float(result.win_probability)

    def _exit_compute(self, hero: Hero, luck: str, enemies, mode, bonus, fight) -> float:
        """The exact chance to leave a fight with exits or per-enemy rules alive."""
        from dedale.rules.odds_exits import ExitOddsTooLarge, exit_odds  # noqa: F401

        skill, stamina = hero.get(self.params.attack_stat), hero.get(self.params.health)
        if skill is None or stamina is None:
            raise ValueError(tr("the ruleset's heroes have no fixed attack or health roll"))
        line_up = tuple((int(a), int(h), bool(i)) for a, h, i in enemies)
        if mode == "together":  # rules/odds_group_exits.py (too large: OddsTooLarge, I115)
            from dedale.validator.fight_plan import together_exit_odds

            return together_exit_odds(self, hero, luck, line_up, bonus, fight)
        if mode == "as_one":
            line_up = ((max(a for a, _, _ in line_up), sum(h for _, h, _ in line_up),
                        all(i for _, _, i in line_up)),)  # fmt: skip
        abilities, armour = class_fight_kit(self.ruleset, hero.class_name)
        try:
            plan = plan_of(fight, self.ruleset, line_up, dict(hero.stats), self.carried,
                           self.codewords, deadly=self.deadly)  # fmt: skip
            plan = dataclasses.replace(plan, bonus=bonus)  # the fight's and the items' bonus
            return exit_odds(
                self.ruleset, skill, stamina, plan,
                luck=hero.get(self.luck_stat) if self.luck_stat else None,
                luck_policy=luck, abilities=abilities, armour=armour,
            )  # fmt: skip
        except ExitOddsTooLarge as error:  # W032, as for the plain DP's too many states
            raise ValueError(error.message) from None


def class_fight_kit(ruleset: object, class_name: str | None) -> tuple[tuple, bool]:
    """A class's abilities and whether its kit (or an ability) guards the first assault,
    as in the hero's first fight (the exact DP's assumption)."""
    from dedale.rules import modifiers as mods

    if class_name is None:
        return (), False
    klass = ruleset.classes[class_name]  # type: ignore[attr-defined]
    armour = mods.has_ability(klass.abilities, "first_assault", "no_wound")
    for item in klass.kit:
        found = ruleset.item(item)  # type: ignore[attr-defined]
        if found and mods.has_ability(found.abilities, "first_assault", "no_wound"):
            armour = armour or found.wear is None or found.wear > 0
    return tuple(klass.abilities), armour


def book_loadout(
    graph: Graph, ruleset: object, given: list[ast.GainItem] | None = None
) -> tuple[frozenset[str], frozenset[str]]:
    """Every item and codeword the book can give (the best loadout, for the conditions of
    rules under an enemy), names folded; ``given`` receives the book's ``take`` lines."""
    items: set[str] = set()
    codewords: set[str] = set()
    for node in graph.nodes.values():
        for statement in walk(node.paragraph.body):
            if isinstance(statement, ast.GainItem):
                items.add(statement.item.casefold())
                if given is not None:
                    given.append(statement)
            elif isinstance(statement, ast.SetCodeword):
                codewords.add(statement.codeword.casefold())
    for klass in getattr(ruleset, "classes", {}).values():
        items.update(name.casefold() for name in klass.kit)
    return frozenset(items), frozenset(codewords)
