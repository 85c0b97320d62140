"""The inputs of the exact odds: one assault's chances, the Luck table, the enemy line-up.

``assault_chances`` depends only on the hero's lead in SKILL and is computed exactly
(fractions, cumulative sums) once per lead; ``lucky_table`` once per Luck test.
``check_size`` bounds the DP's grids before any is allocated (``MAX_CELLS``): the values
an author typed (an enemy's STAMINA of 10^8) never size an allocation.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules.dice import DiceExpr
from dedale.rules.fights import EnemySpec
from dedale.rules.ruleset import OpposedFight, Ruleset

MAX_CELLS = 1_000_000  # cells of the exact odds' grids (Luck x hero x enemy STAMINA) at most


class OddsTooLarge(GameError):
    """The exact odds of a fight would need more than ``MAX_CELLS`` states."""


def check_size(luck_max: int, stamina_max: int, enemies: Sequence[tuple[int, int, bool]]) -> None:
    """Raise :class:`OddsTooLarge` when the grids for these values would hold more than
    ``MAX_CELLS`` cells (computed on Python integers: nothing is allocated)."""
    cells = (max(luck_max, 0) + 1) * (max(stamina_max, 0) + 1)
    cells *= sum(max(stamina, 0) + 1 for _, stamina, _ in enemies)
    if cells > MAX_CELLS:
        largest = max([stamina for _, stamina, _ in enemies] + [stamina_max])
        raise OddsTooLarge(
            tr(
                "the exact odds would need more than {limit} states (a STAMINA of {largest} "
                "is too large to compute)",
                limit=number(MAX_CELLS, ","),
                largest=largest if largest < 10**12 else format(largest, ".3g"),
            ),
            hint=tr("exact odds are computed for STAMINA values up to a few thousand"),
        )


@dataclass(frozen=True, slots=True)
class AssaultChances:
    """The chances of one assault: instant kill, the hero wounds, the enemy wounds, a tie."""

    p_kill: float
    p_hero: float
    p_enemy: float
    p_tie: float


def assault_chances(
    fight: OpposedFight, hero_skill: int, enemy_skill: int, immune: bool
) -> AssaultChances:
    """The chances of one assault (kill, hero wounds, enemy wounds, tie)."""
    return _assault_odds(fight, hero_skill - enemy_skill, immune)


def double_chances(fight: OpposedFight) -> dict[int, Fraction]:
    """For each total of the attack roll, the chance it is a double (instant kills)."""
    assert fight.dice is not None
    dice = fight.dice.dice
    if len(dice) != 1 or dice[0].keep is not None or dice[0].count < 2:
        raise GameError(tr("exact odds of instant kills need a plain NdS attack roll"))
    count, sides = dice[0].count, dice[0].sides
    constant = fight.dice.max() - count * sides
    doubles: dict[int, Fraction] = {}
    for face in range(1, sides + 1):
        total = face * count + constant
        doubles[total] = doubles.get(total, Fraction(0)) + Fraction(1, sides**count)
    return doubles


def below_function(dist: dict) -> Callable[[int], Fraction]:
    """``p_below(x)``: the chance a roll of distribution ``dist`` is below ``x``."""
    lowest, highest = min(dist), max(dist)
    below = [Fraction(0)]  # below[i]: P(roll < lowest + i)
    for total in range(lowest, highest + 1):
        below.append(below[-1] + dist.get(total, 0))

    def p_below(target: int) -> Fraction:
        return below[min(max(target - lowest, 0), len(below) - 1)]

    return p_below


@functools.lru_cache(maxsize=4096)
def _assault_odds(fight: OpposedFight, lead: int, immune: bool) -> AssaultChances:
    """As above, from the hero's lead in SKILL (all that matters), exactly: for each hero
    roll, the chance the enemy rolls below, equal or above it (cumulative sums)."""
    assert fight.dice is not None
    dist = fight.dice.distribution()
    kill = hero = enemy = tie = Fraction(0)
    double_kill = fight.instant_kill_on_double and not immune
    faces_double = double_chances(fight) if double_kill else {}
    p_below = below_function(dist)
    for hero_roll, p_h in dist.items():
        p_double = faces_double.get(hero_roll, Fraction(0))
        kill += p_double
        p_plain = p_h - p_double
        if not p_plain:
            continue
        # The hero wins when the enemy rolls below lead + hero_roll, ties when equal.
        lower, upto = p_below(lead + hero_roll), p_below(lead + hero_roll + 1)
        hero += p_plain * lower
        tie += p_plain * (upto - lower)
        enemy += p_plain * (1 - upto)
    return AssaultChances(float(kill), float(hero), float(enemy), float(tie))


@functools.lru_cache(maxsize=64)
def lucky_table(dice: DiceExpr) -> tuple[float, ...]:
    """P(roll <= luck) of a Luck test's dice for luck = 0..max roll (per ruleset test)."""
    dist = dice.distribution()
    return tuple(
        float(sum(p for total, p in dist.items() if total <= luck)) for luck in range(max(dist) + 1)
    )


def _enemy_pairs(ruleset: Ruleset, enemies: Sequence) -> list[tuple[int, int, bool]]:
    fight = ruleset.fight
    assert isinstance(fight, OpposedFight)
    pairs = []
    for enemy in enemies:
        if isinstance(enemy, EnemySpec):
            skill = int(enemy.stats.get(fight.attack_stat, 0))
            stamina = int(enemy.stats.get(fight.health, 0))
            pairs.append((skill, stamina, enemy.immune_instant_kill))
        elif isinstance(enemy, Mapping):
            skill = int(enemy.get(fight.attack_stat, 0))
            pairs.append((skill, int(enemy.get(fight.health, 0)), False))
        else:
            skill, stamina = enemy[0], enemy[1]
            pairs.append((int(skill), int(stamina), bool(enemy[2]) if len(enemy) > 2 else False))
    return pairs


def enemy_line_up(ruleset: Ruleset, enemies: Sequence, mode: str) -> list[tuple[int, int, bool]]:
    """The enemies as (attack, health, immune) triples, ``as_one`` merged into one."""
    if not isinstance(ruleset.fight, OpposedFight):
        raise GameError(
            tr("exact odds exist only for opposed (FF-family) fights"),
            hint=tr("this ruleset's fight procedure is not `opposed`"),
        )
    if mode not in ("single", "sequence", "as_one"):
        raise GameError(
            tr("exact odds do not cover the '{mode}' mode", mode=mode),
            hint=tr("use sequence or as_one"),
        )
    pairs = _enemy_pairs(ruleset, enemies)
    if not pairs:
        raise GameError(tr("a fight needs at least one enemy"))
    if any(stamina <= 0 for _, stamina, _ in pairs):
        raise GameError(tr("every enemy needs at least 1 STAMINA"))
    if mode == "as_one":
        pairs = [(max(p[0] for p in pairs), sum(p[1] for p in pairs), all(p[2] for p in pairs))]
    check_size(0, 0, pairs)
    return pairs
