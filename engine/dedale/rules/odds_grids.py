"""Value grids shared by the odds tables of one process (issue 14.11: speed).

An :class:`~dedale.rules.odds.OddsTable`'s regular grids depend only on the assault's
chances (the hero's attack against each enemy's SKILL), the damage each way, the Luck test
and the STAMINA of the enemies after the first; not on the hero's armour or first-hit bonus
(the states before the first assault or the first hit are kept apart), nor on the class
that brought them. The validator asks for the same grids many times: the fight table per
class and per policy, then the path of fights for the same heroes. A grid filled once is
kept here, and a table of the same setting that needs no more (Luck, STAMINA, first enemy's
STAMINA) takes a copy of the part it needs instead of filling it again: every cell is the
one the table would compute (a cell depends only on cells of lower Luck, STAMINA or enemy
STAMINA, never on the grid's size). Bounded by :data:`MAX_KEPT_CELLS` cells in all.

The values of the states before the first assault or the first hit (``OddsTable.special``)
depend on the grids and on the hero's armour and first-hit bonus: tables of the same
setting share one memo of them (:func:`specials`), at most :data:`MAX_SPECIAL_STATES`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dedale.rules.odds import OddsTable

MAX_KEPT_CELLS = 2_000_000
"""Cells of the grids kept at most (about 16 MB of references to shared floats); past it
the store is emptied and starts again."""

MAX_SPECIAL_STATES = 500_000
"""Values of states before the first hit kept at most, all settings together."""

_KEPT: dict[tuple, tuple] = {}
_cells = 0
_SPECIAL: dict[tuple, tuple] = {}


def _key(table: OddsTable) -> tuple:
    """What the regular grids depend on (the first enemy's STAMINA only sizes its grid;
    ``LUCK_TIE`` is read as the grid is filled)."""
    from dedale.rules import odds

    (skill, _, immune), rest = table.enemies[0], tuple(table.enemies[1:])
    return (
        id(table.fight), table.hero_attack, skill, immune, rest, tuple(table.params),
        table.hit, table.hurt, table.use_luck, table.luck_cost, table.lucky, odds.LUCK_TIE,
    )  # fmt: skip


def take(table: OddsTable) -> bool:
    """Give ``table`` copies of kept grids large enough for its sizes (True), else False."""
    found = _KEPT.get(_key(table))
    if found is None:
        return False
    fight, luck_max, stamina_max, width, grids, choices, _ = found
    need = table.enemies[0][1] + 1
    if fight is not table.fight or luck_max < table.luck_max or stamina_max < table.stamina_max:
        return False
    if width < need:
        return False
    lucks, rows = table.luck_max + 1, table.stamina_max + 1
    out_grids, out_choices = [], []
    for index, (grid, choice) in enumerate(zip(grids, choices, strict=True)):
        if index == 0:
            out_grids.append([[row[:need] for row in g[:rows]] for g in grid[:lucks]])
            out_choices.append([[row[:need] for row in g[:rows]] for g in choice[:lucks]])
        else:
            out_grids.append([[row[:] for row in g[:rows]] for g in grid[:lucks]])
            out_choices.append([[row[:] for row in g[:rows]] for g in choice[:lucks]])
    table.grids, table.choices = out_grids, out_choices
    return True


def keep(table: OddsTable) -> None:
    """Remember ``table``'s freshly filled grids (the lists themselves: a table only ever
    appends columns to them, which the kept width leaves out)."""
    global _cells
    key = _key(table)
    width = table.enemies[0][1] + 1
    cells = (table.luck_max + 1) * (table.stamina_max + 1)
    cells *= sum(stamina + 1 for _, stamina, _ in table.enemies)
    found = _KEPT.get(key)
    if found is not None:
        if found[1] >= table.luck_max and found[2] >= table.stamina_max and found[3] >= width:
            return  # the kept one already covers it
        _cells -= found[-1]
    if _cells + cells > MAX_KEPT_CELLS:
        clear()
    _KEPT[key] = (
        table.fight,
        table.luck_max,
        table.stamina_max,
        width,
        table.grids,
        table.choices,
        cells,
    )
    _cells += cells


def specials(table: OddsTable) -> dict[tuple, float]:
    """The memo of the values of ``table``'s states before the first assault or the first
    hit, shared with the tables of the same setting (the fight itself kept alive with it,
    so that its id stays its own)."""
    key = (_key(table), table.armour, table.first_hit_bonus)
    found = _SPECIAL.get(key)
    if found is not None and found[0] is table.fight:
        return found[1]
    if sum(len(memo) for _, memo in _SPECIAL.values()) > MAX_SPECIAL_STATES:
        _SPECIAL.clear()
    memo: dict[tuple, float] = {}
    _SPECIAL[key] = (table.fight, memo)
    return memo


def clear() -> None:
    """Forget every kept grid and memo (benchmarks measuring a cold process's work)."""
    global _cells
    _KEPT.clear()
    _SPECIAL.clear()
    _cells = 0
