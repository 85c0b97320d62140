"""The setting of the exact odds with allies (:mod:`dedale.rules.odds_allies`): the allies'
line-up and the budget errors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules.fights import EnemySpec
from dedale.rules.odds_inputs import OddsTooLarge
from dedale.rules.ruleset import OpposedFight, Ruleset


def ally_line_up(ruleset: Ruleset, allies: Sequence) -> list[tuple[int, int]]:
    """The allies as (attack, health) pairs: from (skill, stamina) pairs, ``EnemySpec``s or
    mappings by stat id (a missing stat counts 0, as in the fight)."""
    fight = ruleset.fight
    assert isinstance(fight, OpposedFight)
    pairs = []
    for ally in allies:
        if isinstance(ally, EnemySpec):
            if ally.dice_stats:
                raise GameError(tr("exact odds need an ally's stats as numbers, not dice"))
            stats: Mapping = ally.stats
        elif isinstance(ally, Mapping):
            stats = ally
        else:
            pairs.append((int(ally[0]), max(0, int(ally[1]))))
            continue
        pairs.append(
            (int(stats.get(fight.attack_stat, 0)), max(0, int(stats.get(fight.health, 0))))
        )
    return pairs


def too_large(cells: int, limit: int) -> OddsTooLarge:
    return OddsTooLarge(
        tr(
            "the exact odds with allies would need {cells} states (at most {limit})",
            cells=number(cells, ","),
            limit=number(limit, ","),
        ),
        hint=tr("exact odds with allies are computed for small STAMINA and LUCK values"),
    )


def too_slow(seconds: float, cells: int) -> OddsTooLarge:
    return OddsTooLarge(
        tr(
            "the exact odds with allies ran out of time ({seconds} s, {cells} states done)",
            seconds=number(seconds),
            cells=number(cells, ","),
        ),
        hint=tr("exact odds with allies are computed for small STAMINA and LUCK values"),
    )
