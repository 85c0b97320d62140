"""The solver's clock: the CPU seconds of this process, not the wall clock.

``dedale solve --budget SECONDS`` and every ``deadline`` of :mod:`dedale.solve` are read on
this clock (:func:`time.process_time`: user + system CPU time of every thread of the
process). On a loaded machine the wall clock runs two to eight times faster than the
solver's work; a budget in wall time then cut solves short that fit on an idle machine, and
the same command gave different answers from one run to the next. In CPU time the part a
budget solves depends on the book and the hero only (up to the speed of the processor). The
state cap (``--max-states``) bounds the memory whatever the clock.
"""

from __future__ import annotations

import time


def now() -> float:
    """The CPU seconds this process has used (the solver's deadlines are on this clock)."""
    return time.process_time()
