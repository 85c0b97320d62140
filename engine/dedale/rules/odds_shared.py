"""Win probabilities from value tables shared between fights (``fight_odds(win_only=True)``).

An :class:`OddsTable`'s grid for its first enemy holds every STAMINA of that enemy up to
the table's, and every hero STAMINA and LUCK up to the ones it was filled for: fights that
differ only in those read one table (a book's fights often share an enemy's SKILL). A
table is widened when a fight needs more: new columns only for a tougher first enemy,
filled again for a hero with more STAMINA or LUCK.
"""

from __future__ import annotations

from collections.abc import Sequence

from dedale.rules import odds_grids
from dedale.rules.odds import OddsTable
from dedale.rules.odds_inputs import enemy_line_up
from dedale.rules.ruleset import Ruleset

_TABLES: dict[tuple, tuple[Ruleset, OddsTable]] = {}
_MAX_TABLES = 512


def shared_win(
    ruleset: Ruleset,
    hero_skill: int,
    hero_stamina: int,
    enemies: Sequence,
    *,
    luck: int | None,
    luck_policy: str,
    class_name: str | None,
    mode: str,
    attack_bonus: int,
    enemy_damage: int | None,
    armour: bool | None,
) -> float:
    """The exact chance to win (as ``fight_odds(...).win_probability``)."""
    pairs = enemy_line_up(ruleset, enemies, mode)
    (skill, stamina, immune), rest = pairs[0], tuple(pairs[1:])
    key = (
        id(ruleset), hero_skill, skill, immune, rest, luck_policy, class_name, attack_bonus,
        enemy_damage, armour,
    )  # fmt: skip
    found = _TABLES.get(key)
    table = found[1] if found is not None and found[0] is ruleset else None
    if table is None:
        table = OddsTable(
            ruleset, hero_skill, [(skill, stamina, immune), *rest], luck_policy=luck_policy,
            class_name=class_name, attack_bonus=attack_bonus, enemy_damage=enemy_damage,
            armour=armour,
        )  # fmt: skip
        if len(_TABLES) >= _MAX_TABLES:
            _TABLES.clear()
        _TABLES[key] = (ruleset, table)  # the ruleset kept alive: its id stays its own
    else:
        table.widen_first(stamina)
    return table.win_probability(hero_stamina, luck, stamina)


def clear() -> None:
    """Forget every shared table and grid (benchmarks measuring a cold process's work)."""
    _TABLES.clear()
    odds_grids.clear()
