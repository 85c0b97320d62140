"""Time budgets of the validator's costly checks, and the I051 finding when one is hit.

Each costly part has a count budget of its own (games, states, simulated fights) and a
time budget here, so that no book makes ``dedale validate`` run for long: random
playthroughs, state-aware reachability, fight odds. A budget hit is never silent: I051 says
what was cut and how much was done. book.yaml may change the seconds of every part with
``validator: time_budget: 60``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from dedale.i18n import tr
from dedale.validator.findings import Finding, finding

PLAYTHROUGHS_SECONDS = 30.0
STATES_SECONDS = 15.0
FIGHTS_SECONDS = 30.0
CLOCK_EVERY = 1024  # steps between two looks at the clock, where a loop counts steps


@dataclass(slots=True)
class Deadline:
    """A point in time (``time.monotonic``) a check must stop at; None: no limit."""

    seconds: float | None
    at: float | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.at = None if self.seconds is None else time.monotonic() + self.seconds

    def passed(self) -> bool:
        return self.at is not None and time.monotonic() > self.at


@dataclass(slots=True)
class CpuDeadline(Deadline):
    """A budget of the process's CPU time (``time.process_time``): a loaded machine, where
    the wall clock runs on while other processes have the cores, does not cut the work."""

    def __post_init__(self) -> None:
        self.at = None if self.seconds is None else time.process_time() + self.seconds

    def passed(self) -> bool:
        return self.at is not None and time.process_time() > self.at


def budget_finding(
    what: str, done: int, total: int | None, seconds: float | None, unit: str = ""
) -> Finding:
    """I051: ``what`` stopped at its time budget after ``done`` of ``total`` (None: an
    unknown number of) ``unit``."""
    shown = f"{seconds:g}" if seconds is not None else "?"
    if total is None:
        message = tr(
            "{what} stopped at the time budget of {seconds} s, after {done} {unit}",
            what=what,
            seconds=shown,
            done=done,
            unit=unit,
        )
    else:
        message = tr(
            "{what} stopped at the time budget of {seconds} s: {done} of {total} done",
            what=what,
            seconds=shown,
            done=done,
            total=total,
        )
    return finding(
        "I051",
        message,
        None,
        hint=tr("raise validator.time_budget in book.yaml (seconds) to check everything"),
        done=done,
        total=total,
        seconds=seconds,
    )


def playthrough_budget(stats: object) -> list[Finding]:
    """I051 when the random games stopped at their time budget (``PlaythroughStats``)."""
    planned, runs = getattr(stats, "planned", 0), getattr(stats, "runs", 0)
    if runs >= planned:
        return []
    return [budget_finding(tr("random playthroughs"), runs, planned, stats.budget)]
