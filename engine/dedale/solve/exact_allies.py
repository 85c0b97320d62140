"""Fights with allies in exact fractions, for ``dedale solve --exact``.

:class:`ExactAllyTable` is :class:`dedale.solve.ally_duel.AllyValueTable` (the allies' DP
valued by its end states' values, filled by the scalar loop) with its chances made exact
:class:`dedale.solve.exact_group.XF` fractions: each assault's chances (the hero's and each
ally's exchange) and the Luck table are the dice laws they were rounded from
(:func:`dedale.solve.exact_exits.exact_chance`), and the DP's float constants (``0.0``,
``1.0``, a half for "enemies strike at random", its tolerance) are taken as the exact
values they hold. The same states, moves and Luck choices ("better" by more than the same
relative 1e-15), every value exact. It serves both ways the solver plays a fight with
allies: as the exact twin of the Duel node of ``--luck best`` (:meth:`book_value`,
:meth:`ends_under`, which :mod:`dedale.solve.exact` calls) and, valued 1 for a win, as the
oracle's outcomes with ``--luck fight`` (the fight's best Luck) and ``--luck none`` (the
hero's LUCK set aside: never tested). Bounded as the allies' DP (cells and CPU seconds).
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

from dedale.solve.ally_duel import AllyValueTable
from dedale.solve.exact_exits import exact_chance
from dedale.solve.exact_group import XF

LOST = -1


def _xf(p) -> XF:
    return XF(exact_chance(p)) if isinstance(p, float) else XF(p)


class ExactAllyTable(AllyValueTable):
    """:class:`AllyValueTable` in fractions (see the module docstring)."""

    def __init__(self, *args, **options) -> None:
        super().__init__(*args, **options)
        base = self.base

        def exact(chances):
            return dataclasses.replace(chances, **{
                name: _xf(getattr(chances, name)) for name in ("p_kill", "p_hero", "p_enemy",
                                                               "p_tie")
            })  # fmt: skip

        base.params = [exact(c) for c in base.params]
        base.lucky = tuple(_xf(q) for q in base.lucky)
        self.ally_chances = [[exact(c) for c in row] for row in self.ally_chances]

    def book_value(self, begin: tuple, terminal: dict) -> tuple[Any, None]:
        """The fight's exact value for the end values ``terminal[(STAMINA, LUCK)]``, Luck
        tested where that raises it (the exact twin of :meth:`AllyValueTable.value`)."""
        return Fraction(self.value(begin, lambda h, luck: terminal[h, luck])), None

    def ends_under(self, begin: tuple, terminal: dict) -> dict[tuple[int, int], Fraction]:
        """The end states' exact chances with Luck decided as for ``terminal``."""
        found = self.outcomes(begin, lambda h, luck: terminal[h, luck])
        return {key: Fraction(p) for key, p in found.items()}


def exact_ally_outcomes(table: ExactAllyTable, stamina: int, luck: int) -> tuple:
    """``((p, ("f", (STAMINA, LUCK) or LOST)), ...)`` in fractions with the fight's own
    best Luck from ``luck`` (0: never tested), as :func:`dedale.solve.fights_allies.
    ally_outcomes`."""
    begin = table.start(stamina, luck)
    ends = table.ends_under(begin, {key: Fraction(1) for key in table.ends(begin)})
    found: list[tuple[Any, Any]] = [(p, ("f", key)) for key, p in sorted(ends.items()) if p]
    lost = 1 - sum(ends.values(), Fraction(0))
    if lost:
        found.append((lost, ("f", LOST)))
    return tuple(found)
