"""The solver's FF-family fights with allies (issue 14.1): the joint (STAMINA, LUCK) after a
win from the exact DP of :mod:`dedale.rules.odds_allies`, one hook of
:class:`dedale.solve.fights.FightOracle`.

Taken: a fight in which only its allies make the book act (no rule under an enemy, no
threshold, no table, no status acting each assault), enemies in turn or as one, no escape
or assault limit, allies' stats as numbers. Luck: ``--luck none`` never tests it,
``--luck fight`` tests it where the fight's own chance is best; with the book's best Luck
(``--luck best``) the fight is a Duel node whose Luck is decided for the book
(:mod:`dedale.solve.ally_duel`), and these outcomes are not used.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from dedale import ast
from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.fights import FightSpec
from dedale.solve.exactness import EXACT
from dedale.solve.fights import LOST
from dedale.solve.model import SolveLimit


def allies_only(runner, statement: ast.Fight) -> bool:
    """Whether a fight the book acts in acts only through its allies."""
    if not statement.allies:
        return False
    return not runner._by_assault(dataclasses.replace(statement, allies=()))


def ally_outcomes(oracle, runner, statement: ast.Fight, spec: FightSpec, ruleset, bonus: int,
                  armour: bool) -> tuple[tuple[float, Any], ...]:  # fmt: skip
    """The fight's outcomes as the solver's oracle gives them: ((chance, ("f", (STAMINA,
    LUCK))), ..., (chance, ("f", lost)))."""
    from dedale.rules.odds_allies import shared_table

    check_allies(statement, spec)
    hero = runner.state.hero
    params = ruleset.fight
    test = ruleset.tests.get(params.luck_test) if params.luck_test else None
    luck = hero.stats.get(test.stat) if test is not None else None
    enemies, allies = ally_pairs(runner, statement, spec, params)
    oracle.fights += 1
    if EXACT.get():  # --exact: the same DP in fractions (solve/exact_allies.py)
        return _exact_outcomes(oracle, runner, statement, spec, ruleset, bonus, armour, luck)
    try:
        table = shared_table(
            ruleset, hero.stats[params.attack_stat], enemies, allies, struck=statement.struck,
            luck_policy=oracle.luck_policy if luck is not None else "none",
            class_name=hero.class_name, mode=spec.mode, attack_bonus=bonus,
            enemy_damage=spec.enemy_damage, armour=armour,
        )  # fmt: skip
        # filled once for the hero's initial STAMINA and LUCK: every later start reads it
        most = max(hero.initial.get(params.health, 0), hero.stats[params.health])
        top = None if luck is None else max(hero.initial.get(test.stat, 0), luck)
        table.solve(most, top, win_only=True)
        result = table.solve(hero.stats[params.health], luck)
    except GameError as error:
        raise SolveLimit(error.message, statement.span, hint=error.hint) from None
    win = result.win_probability
    found_outcomes: list[tuple[float, Any]] = [
        (win * share, ("f", end)) for end, share in result.end_states.items() if share > 0
    ]
    if win < 1.0:
        found_outcomes.append((1.0 - win, ("f", LOST)))
    return tuple(found_outcomes)


def _exact_outcomes(oracle, runner, statement, spec, ruleset, bonus, armour, luck) -> tuple:
    """:func:`ally_outcomes` in fractions: the fight's best Luck from the hero's LUCK
    (``--luck fight``), or none tested (``--luck none``, or a ruleset without Luck)."""
    from dedale.solve.exact_allies import exact_ally_outcomes

    hero = runner.state.hero
    params = ruleset.fight
    try:
        table = exact_table(oracle, runner, statement, spec, ruleset, bonus, armour)
        tested = luck if luck is not None and oracle.luck_policy == "best" else 0
        return exact_ally_outcomes(table, hero.stats[params.health], tested)
    except GameError as error:
        raise SolveLimit(error.message, statement.span, hint=error.hint) from None


def exact_table(oracle, runner, statement, spec, ruleset, bonus, armour):
    """The fight's :class:`dedale.solve.exact_allies.ExactAllyTable` (shared by the
    oracle's fights against the same line-up)."""
    from dedale.solve.exact_allies import ExactAllyTable

    hero = runner.state.hero
    params = ruleset.fight
    skill = hero.stats[params.attack_stat]
    enemies, allies = ally_pairs(runner, statement, spec, params)
    key = ("exact allies", id(ruleset), repr(spec), skill, bonus, armour, hero.class_name,
           tuple(allies), statement.struck)  # fmt: skip
    table = oracle._tables.get(key)
    if table is None:
        table = oracle._tables[key] = ExactAllyTable(
            ruleset, skill, enemies, allies, struck=statement.struck,
            class_name=hero.class_name, mode=spec.mode, attack_bonus=bonus,
            enemy_damage=spec.enemy_damage, armour=armour,
        )  # fmt: skip
    return table


def check_allies(statement: ast.Fight, spec: FightSpec) -> None:
    """Refuse at the fight's line what the allies' DP does not follow (a way out, enemies
    at once)."""
    if spec.mode == "together" or spec.escape_after is not None or spec.assault_limit:
        reason = tr("allies with an escape, an assault limit or enemies at once")
        raise SolveLimit(
            tr("the solver cannot play this fight exactly: {reason}", reason=reason),
            statement.span,
            hint=tr("with allies the solver plays fights in turn or as one, without ways out"),
        )


def ally_pairs(runner, statement: ast.Fight, spec: FightSpec, params) -> tuple[list, list]:
    """The enemies' and the allies' (attack, health, immune), as the allies' DP takes them
    (an ally's stats given as dice: SolveLimit)."""
    allies = []
    for ally in statement.allies:
        found = runner._enemy(ally)
        if found.dice_stats:
            raise SolveLimit(tr("exact odds need an ally's stats as numbers, not dice"),
                             statement.span)  # fmt: skip
        allies.append(found)
    return [_pair(e, params) for e in spec.enemies], [_pair(a, params) for a in allies]


def _pair(fighter, params) -> tuple[int, int, bool]:
    """(attack, health, immune) of an enemy or ally spec (a stat it lacks counts 0)."""
    stats = fighter.stats
    return (int(stats.get(params.attack_stat, 0)), int(stats.get(params.health, 0)),
            fighter.immune_instant_kill)  # fmt: skip
