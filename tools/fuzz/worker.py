"""A worker process that runs fuzz inputs, so a hang in C code or a memory blow-up never
takes the caller down: the caller kills it past a hard limit and starts another."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from typing import Any

from tools.fuzz.harness import run_input
from tools.fuzz.inputs import FuzzInput
from tools.fuzz.reduce import reduce_input


def serve(conn: Any) -> None:
    """Answer ("run", input, options) and ("reduce", input, signature, options, seconds)."""
    while True:
        try:
            message = conn.recv()
        except EOFError:
            return
        if message[0] == "run":
            conn.send(run_input(message[1], **message[2]))
        elif message[0] == "reduce":
            _, fuzz, signature, options, seconds = message

            conn.send(reduce_input(fuzz, _same_failure(signature, options), seconds))
        else:
            return


def _same_failure(signature: str, options: dict[str, Any]) -> Callable[[FuzzInput], bool]:
    def same(candidate: FuzzInput) -> bool:
        return run_input(candidate, **options).signature == signature

    return same


class Worker:
    """A worker process, restarted when it hangs past the hard limit."""

    def __init__(self) -> None:
        self.context = multiprocessing.get_context("spawn")
        self.process: Any = None
        self.conn: Any = None
        self.restarts = 0

    def _start(self) -> None:
        parent, child = self.context.Pipe()
        self.process = self.context.Process(target=serve, args=(child,), daemon=True)
        self.process.start()
        child.close()
        self.conn = parent

    def ask(self, message: tuple, limit: float) -> Any:
        """Send ``message``; the answer, or None if none came within ``limit`` seconds."""
        if self.process is None or not self.process.is_alive():
            self._start()
        try:
            self.conn.send(message)
            if self.conn.poll(limit):
                return self.conn.recv()
        except (EOFError, OSError, BrokenPipeError):
            pass
        self.kill()
        self.restarts += 1
        return None

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.join(5)
            self.process = None

    def close(self) -> None:
        if self.process is not None:
            try:
                self.conn.send(("stop",))
            except OSError:
                pass
            self.process.join(5)
            self.kill()
