"""Run ``dedale serve`` in a child process for a test: a free port, a deadline to come up,
and a stop by SIGINT (Ctrl-C) that is checked, the process killed if it hangs."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0


def free_port() -> int:
    """A port nobody listens on now (the OS's choice)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Served:
    """A running ``dedale serve``."""

    process: subprocess.Popen[str]
    url: str
    log: Path
    children_seen: set[int] = field(default_factory=set)

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def children(self) -> set[int]:
        """The pids of the server's child processes (its games), from /proc."""
        found: set[int] = set()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = (entry / "stat").read_text()
                parent = int(stat.rsplit(")", 1)[1].split()[1])
                if parent == self.process.pid:
                    found.add(int(entry.name))
        self.children_seen |= found
        return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@contextlib.contextmanager
def serving(book: Path, tmp_path: Path, *options: str) -> Iterator[Served]:
    """``dedale serve BOOK --port P --data-dir TMP/data OPTIONS``, up and listening; stopped
    with SIGINT at the end (the test fails if it does not exit 0 in time, or leaves a game
    process behind)."""
    port = free_port()
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "dedale", "serve", str(book), "--port", str(port)]
    command += ["--data-dir", str(tmp_path / "data"), *options]
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, text=True, env=_environment()
        )
    served = Served(process, f"http://127.0.0.1:{port}/", log)
    try:
        wait_until_listening(process, port, log)
        yield served
    finally:
        served.children()
        code = _stop(process)
        leftovers = {pid for pid in served.children_seen if _alive(pid)}
        for pid in leftovers:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
    assert code == 0, f"dedale serve exited {code} after Ctrl-C:\n{served.output()}"
    assert not leftovers, f"game processes left running after Ctrl-C: {leftovers}"


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("DEDALE_SCREEN_READER", None)
    env["PYTHONUNBUFFERED"] = "1"
    return env


def wait_until_listening(process: subprocess.Popen, port: int, log: Path) -> None:
    """Return once the server accepts connections on ``port``; AssertionError (with its
    output) if it stops or does not listen within START_TIMEOUT seconds."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"dedale serve stopped at once:\n{log.read_text()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return
        time.sleep(0.1)
    raise AssertionError(f"dedale serve did not listen within {START_TIMEOUT}s:\n{log.read_text()}")


def _stop(process: subprocess.Popen[str]) -> int | None:
    """Ctrl-C, then the exit code; killed (None) past STOP_TIMEOUT."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    try:
        return process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
        return None
