"""``--watch``: reload an edited book and carry the game over, off the UI thread, in bounded time.

Reloading parses the book again and replays the game's decision log on it; an edit can make
either run for a very long time (a loop of forced jumps, a huge file). :func:`reload_game`
runs in a Textual thread worker under :func:`run_with_deadline`: past
:data:`RELOAD_SECONDS` the work is abandoned (:class:`ReloadTimeout`) and the app keeps the
book and the game it had. The deadline is checked on every Python call the reload makes, in
its own thread only (and raised only in Dédale's own code, which never swallows it), so it
needs nothing from the interpreter.
"""

from __future__ import annotations

import gc
import inspect
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from dedale.player.slots import LoadedGame, SaveSlots

RELOAD_SECONDS = 5.0
"""Longest a reload may take before it is abandoned."""
_PACKAGE = os.path.dirname(os.path.dirname(__file__))  # engine/dedale, as code objects name it

T = TypeVar("T")
_RESUMABLE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


class ReloadTimeout(BaseException):
    """The reload ran past its deadline (a BaseException: no ``except Exception`` keeps it)."""


def run_with_deadline(work: Callable[[], T], seconds: float) -> T:
    """``work()`` in this thread; ReloadTimeout if it is still running after ``seconds``."""
    deadline = time.monotonic() + seconds
    previous = sys.gettrace()

    def check(frame: Any, event: str, arg: Any) -> None:
        # Only in Dédale's own code: raising where the exception would be swallowed (a gc
        # callback, a finaliser of another library) would unset this trace for good. Nor in
        # a generator's frame: the garbage collector may be closing a generator of another
        # game in this thread, where the exception could not be raised (it would be
        # "ignored"); the next plain call of the reload meets the deadline instead.
        code = frame.f_code
        if code.co_flags & _RESUMABLE:
            return None
        if time.monotonic() > deadline and code.co_filename.startswith(_PACKAGE):
            raise ReloadTimeout
        return None  # no line events: only calls are checked

    collecting = gc.isenabled()
    gc.disable()  # no collection in this thread meanwhile: it would run other games' code
    sys.settrace(check)
    try:
        return work()
    finally:
        sys.settrace(previous)
        if collecting:
            gc.enable()


@dataclass(frozen=True)
class ReloadResult:
    """What a reload gives back: the new book, and the game carried over (if one was going)."""

    book: Any
    loaded: LoadedGame | None
    decisions: int  # how long the game's log was when it was saved for the reload


class ReloadJob:
    """One reload: made on the UI thread (it saves the game as it stands), run in a worker."""

    def __init__(
        self,
        load_book: Callable[[], Any],
        game: Any | None,
        save_fn: Any = None,
        load_fn: Any = None,
    ) -> None:
        self.load_book = load_book
        self.folder = tempfile.TemporaryDirectory(prefix="dedale-reload-")
        self.slots = SaveSlots(Path(self.folder.name), "reload", save_fn, load_fn)
        self.decisions = len(getattr(game, "decisions", ()) or ()) if game is not None else 0
        self.has_game = game is not None
        if game is not None:
            self.slots.save("state", game)  # SaveError if it cannot be written

    def run(self, seconds: float = RELOAD_SECONDS) -> ReloadResult:
        """Load the book again and resume the saved game on it, within ``seconds``.

        Raises DedaleError when the new book or the save cannot be used, ReloadTimeout when
        it takes too long. The temporary save is removed in every case."""

        def work() -> ReloadResult:
            book = self.load_book()
            loaded = self.slots.load("state", book) if self.has_game else None
            return ReloadResult(book, loaded, self.decisions)

        try:
            return run_with_deadline(work, seconds)
        finally:
            self.folder.cleanup()
