"""Benchmark: ``dedale validate --runs 0 --format json`` as a whole process, this checkout
against another source tree, interleaved, in CPU time (issue 14.11).

    git archive BASE engine | tar -x -C /tmp/base
    python tools/bench/bench_startup.py /tmp/base/engine BOOK... [--repeat 7] [--cold]

Each round runs every book with the other tree (``PYTHONPATH=OTHER_ENGINE_DIR``) then with
this one, so that a shared machine's load falls on both alike. The processes use Python's
bytecode cache (a temporary PYTHONPYCACHEPREFIX, warmed by one run of each) and Dédale's
user cache (warmed the same way) unless ``--cold``, which gives each run an empty
``XDG_CACHE_HOME`` (and no bytecode cache): a first start. Prints the median (min) CPU
time (user + system of the child) of each tree per book, and the load average before and
after.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def cpu_of(command: list[str], env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="the other tree's engine/ folder")
    parser.add_argument("books", nargs="+")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--cold", action="store_true", help="empty caches at every run")
    options = parser.parse_args()
    command = [sys.executable, "-m", "dedale", "validate", "--runs", "0", "--format", "json"]
    base = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE",)}
    with tempfile.TemporaryDirectory() as tmp:
        envs = {}
        for name, path in (("other", options.other), ("this", None)):
            env = dict(base, XDG_CACHE_HOME=str(Path(tmp) / f"cache-{name}"))
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / f"pycache-{name}")
            if path is not None:
                env["PYTHONPATH"] = path
            if options.cold:
                env["PYTHONDONTWRITEBYTECODE"] = "1"
            envs[name] = env
            for book in options.books:  # warm the bytecode and user caches
                subprocess.run([*command, book], env=env, capture_output=True)
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        found: dict[tuple[str, str], list[float]] = {}
        for round_ in range(options.repeat):
            for book in options.books:
                for name, env in envs.items():
                    if options.cold:
                        env = dict(env, XDG_CACHE_HOME=str(Path(tmp) / f"cold-{round_}-{name}"))
                    found.setdefault((book, name), []).append(cpu_of([*command, book], env))
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        for book in options.books:
            shown = []
            for name in envs:
                times = found[(book, name)]
                shown.append(f"{name} {statistics.median(times):.3f} s ({min(times):.3f})")
            print(f"{book}: CPU median (min) " + ", ".join(shown))


if __name__ == "__main__":
    main()
