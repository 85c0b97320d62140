"""Reliques fights in exact fractions, for ``dedale solve --exact``.

The reliques fight DP (:class:`dedale.rules.odds_reliques_dp._ReliquesDP`) follows the fight
turn by turn in floats: every chance is a count of the 36 faces of a duo test divided by 36
(:meth:`~dedale.rules.odds_reliques_rules.ReliquesTables._chance`), summed and multiplied
from there. :class:`ExactReliquesDP` is the same DP with that one division made a
:class:`dedale.solve.exact_group.XF` fraction (which takes the DP's float constants —
``0.0``, ``1.0``, its tolerances — as the exact values they hold): the same states, turns,
choices (dodge or parry, the target, the escape, a heroism point: "better" by more than the
same tolerances) and forward pass, every chance exact; the fixed point of a turn that may
return to its start is policy iteration on exact values. Bounded by the DP's own state
budget and :data:`SECONDS` of CPU per fight.
"""

from __future__ import annotations

from dedale.rules.odds_reliques_dp import _ReliquesDP
from dedale.solve.exact_group import XF

SECONDS = 20.0
"""CPU seconds of one exact reliques fight at most (fractions are costly); past it the
fight is refused at its line."""


class ExactReliquesDP(_ReliquesDP):
    """:class:`_ReliquesDP` over exact chances (see the module docstring)."""

    def _chance(self, count: int, of: int) -> XF:
        return XF(count, of)
