"""Run one fuzz input through load, validate and seeded random play, under a watchdog.

What counts as a failure (everything else is a clean finish):

- any exception that is not a ``dedale.errors.DedaleError`` subclass, in any phase;
- a load error without a location (no Span), or whose ``render()`` fails;
- a validator report whose random game "crashed" with a non-Dedale exception (E040 hides
  the traceback in a finding: still a crash);
- a phase that runs past its deadline (``FuzzTimeout``) or past its memory budget
  (``MemoryError`` under ``RLIMIT_AS``).

The watchdog is SIGALRM (``signal.setitimer``) in the main thread: it interrupts Python
code, not a long call inside C; the campaign therefore also runs its worker in a child
process that it kills past a hard limit.
"""

from __future__ import annotations

import io
import resource
import signal
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.fuzz.inputs import FuzzInput

DEADLINE = 5.0  # seconds per phase
MEMORY = 2 << 30  # bytes of address space a phase may add
RUNS = 2  # the validator's random games, and the seeded random games played after it
PHASES = ("load", "validate", "report", "play")


class FuzzTimeout(BaseException):
    """Raised by the watchdog in the main thread: the phase ran past its deadline.

    A BaseException, so that an ``except Exception`` in the code under test cannot
    swallow it.
    """


@dataclass(slots=True)
class Outcome:
    """How one input ended."""

    status: str  # "played" (loaded, validated, played), "refused" (typed load error), "failure"
    phase: str = ""
    error: str = ""  # the exception's class name (or a failure kind)
    message: str = ""
    traceback: str = ""
    where: str = ""  # the innermost frame in dedale: "dedale/game/runner.py:run"
    seconds: float = 0.0

    @property
    def failed(self) -> bool:
        return self.status == "failure"

    @property
    def signature(self) -> str:
        """What makes two failures the same defect: phase, class, and where (for a crash).

        A timeout or a memory blow-up is the same defect wherever the alarm lands."""
        if self.error in ("Timeout", "MemoryError", "HardTimeout"):
            return f"{self.phase}:{self.error}"
        return f"{self.phase}:{self.error}@{self.where}"


def _address_space() -> int:
    try:
        with open("/proc/self/statm") as handle:
            return int(handle.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


@contextmanager
def watchdog(seconds: float, memory: int | None = MEMORY) -> Iterator[None]:
    """Raise FuzzTimeout in the main thread after ``seconds``; cap the address space at
    its current size plus ``memory`` bytes (None: no cap). Both are undone on exit."""

    armed = [True]

    def alarm(_signum: int, _frame: Any) -> None:
        if armed[0]:
            raise FuzzTimeout(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    limits = resource.getrlimit(resource.RLIMIT_AS)
    capped = False
    if memory is not None:
        current = _address_space()
        if current:
            cap = current + memory
            if limits[1] == resource.RLIM_INFINITY or cap < limits[1]:
                resource.setrlimit(resource.RLIMIT_AS, (cap, limits[1]))
                capped = True
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        armed[0] = False  # an alarm landing from here on is ignored
        # The cap goes first: at the cap, even disarming the timer may raise MemoryError,
        # and a cap left behind would break everything after (the test run itself).
        if capped:
            _lift(limits)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _lift(limits: tuple[int, int]) -> None:
    """Restore the address-space limits, retrying if the call itself runs out of memory
    (or the alarm lands in it)."""
    for _ in range(10):
        try:
            resource.setrlimit(resource.RLIMIT_AS, limits)
            return
        except (MemoryError, FuzzTimeout):
            continue
    resource.setrlimit(resource.RLIMIT_AS, limits)


def _innermost_dedale(tb: Any) -> str:
    where = ""
    for frame in traceback.extract_tb(tb):
        marker = frame.filename.replace("\\", "/").rfind("/dedale/")
        if marker >= 0:
            where = f"{frame.filename[marker + 1 :]}:{frame.name}"
    return where


def _failure(phase: str, error: BaseException, started: float) -> Outcome:
    kind = "Timeout" if isinstance(error, FuzzTimeout) else type(error).__name__
    return Outcome(
        "failure",
        phase,
        kind,
        str(error)[:2000],
        "".join(traceback.format_exception(error))[-20_000:],
        _innermost_dedale(error.__traceback__),
        time.perf_counter() - started,
    )


def _guarded(
    phase: str, call: Callable[[], Any], deadline: float, memory: int | None
) -> tuple[Any, Outcome | None, BaseException | None]:
    """Run ``call`` under the watchdog: (result, failure or None, typed error or None)."""
    from dedale.errors import DedaleError

    started = time.perf_counter()
    try:
        with watchdog(deadline, memory):
            return call(), None, None
    except DedaleError as error:
        return None, None, error
    except (Exception, FuzzTimeout, RecursionError, MemoryError) as error:  # noqa: B014
        return None, _failure(phase, error, started), None


def _check_load_error(error: BaseException) -> str | None:
    """Why a typed load error is not good enough for an author (or None)."""
    errors = getattr(error, "errors", None) or [error]
    for item in errors:
        if getattr(item, "span", None) is None:
            return f"{type(item).__name__} without a location: {item}"
        try:
            item.render()
        except Exception as problem:  # a message that cannot be shown is a crash too
            return f"render() of {type(item).__name__} failed: {problem!r}"
    return None


def _typed_names() -> set[str]:
    """The class names of every DedaleError subclass loaded (errors.py's and others)."""
    from dedale.errors import DedaleError

    names, todo = set(), [DedaleError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names


def _hidden_crashes(report: Any) -> str | None:
    """A random game of the validator that crashed with a non-Dedale exception: E040
    turns it into a finding ("random game (seed 3) crashed: KeyError: ..."); still a
    traceback's worth of bug."""
    typed = _typed_names()
    for item in report.findings:
        if getattr(item, "code", "") != "E040":
            continue
        message = str(getattr(item, "message", ""))
        _, _, rest = message.partition("crashed: ")
        name = rest.split(":", 1)[0].strip()
        if name and name.isidentifier() and name not in typed:
            return message
    return None


def run_path(
    path: Path,
    seed: int = 0,
    *,
    deadline: float = DEADLINE,
    memory: int | None = MEMORY,
    runs: int = RUNS,
) -> Outcome:
    """Load, validate (``runs`` random games), render the report and play ``runs`` seeded
    random games of the book at ``path``; the first failure, or how it ended."""
    from dedale.game.random_player import play_random
    from dedale.language import load_book
    from dedale.validator.checker import validate_loaded
    from dedale.validator.report import renderer

    started = time.perf_counter()
    book, failure, refused = _guarded("load", lambda: load_book(path), deadline, memory)
    if failure is not None:
        return failure
    if refused is not None:
        problem = _check_load_error(refused)
        if problem is not None:
            return Outcome("failure", "load", "UnlocatedError", problem, "", "", 0.0)
        return Outcome("refused", "load", type(refused).__name__, str(refused)[:500])

    report, failure, _typed = _guarded(
        "validate", lambda: validate_loaded(book, str(path), runs=runs, seed=seed), deadline, memory
    )
    if failure is not None:
        return failure
    if report is not None:
        hidden = _hidden_crashes(report)
        if hidden is not None:
            return Outcome("failure", "validate", "HiddenCrash", hidden, "", "", 0.0)

        def render() -> None:
            for name in ("json", "text"):
                renderer(name)([report], io.StringIO(), 0)

        _, failure, _typed = _guarded("report", render, deadline, memory)
        if failure is not None:
            return failure

    def play() -> None:
        for game_seed in range(seed, seed + runs):
            play_random(book, game_seed)

    _, failure, _typed = _guarded("play", play, deadline, memory)
    if failure is not None:
        return failure
    return Outcome("played", seconds=time.perf_counter() - started)


def run_input(fuzz: FuzzInput, **options: Any) -> Outcome:
    """Write ``fuzz`` into a temporary folder and run it (see ``run_path``)."""
    with tempfile.TemporaryDirectory(prefix="dedale-fuzz-") as folder:
        return run_path(fuzz.write(Path(folder)), fuzz.seed, **options)
