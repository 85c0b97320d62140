"""Whether the solve in progress carries its chances as exact fractions (``--exact``).

A context variable, set by :func:`dedale.solve.exact.solve_exact` around one solve: the
producers of chances (the enumerated dice, the roll-under tests, the fight oracle) read it
and give :class:`fractions.Fraction` probabilities, or refuse a fight whose outcomes exist
only in floats. The graph is solved in floats as always; :mod:`dedale.solve.exact` then
values it again in fractions.
"""

from __future__ import annotations

from contextvars import ContextVar
from fractions import Fraction

EXACT: ContextVar[bool] = ContextVar("dedale_solve_exact", default=False)


def ratio(numerator: int, denominator: int, exact: bool | None = None) -> float | Fraction:
    """``numerator / denominator``: a Fraction in an exact solve, else a float."""
    if EXACT.get() if exact is None else exact:
        return Fraction(numerator, denominator)
    return numerator / denominator
