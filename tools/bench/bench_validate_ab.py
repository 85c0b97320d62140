"""Benchmark: whole-process ``dedale validate --runs 0`` of two source trees, interleaved.

    python tools/bench/bench_validate_ab.py OTHER_ENGINE_DIR BOOK... [--repeat 5]

Runs this checkout and the other tree (``PYTHONPATH=OTHER_ENGINE_DIR``, e.g. main's
``engine/`` exported with ``git archive``) one after the other ``repeat`` times, and prints
the median wall and CPU time of each (interleaving spreads a shared machine's load evenly).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time


def run(books: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one validation process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    command = [sys.executable, "-m", "dedale.cli", "validate", "--runs", "0", *books]
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return time.perf_counter() - started, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other")
    parser.add_argument("books", nargs="+")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    envs = {"other": dict(os.environ, PYTHONPATH=options.other), "this": dict(os.environ)}
    found: dict[str, list[tuple[float, float]]] = {name: [] for name in envs}
    for _ in range(options.repeat):
        for name, env in envs.items():
            found[name].append(run(options.books, env))
    for name, times in found.items():
        wall = statistics.median(w for w, _ in times)
        cpu = statistics.median(c for _, c in times)
        print(f"{name}: wall median {wall:.2f} s, CPU median {cpu:.2f} s")


if __name__ == "__main__":
    main()
