"""Benchmark: the CPU time of ``validate_loaded(book, runs=0)`` (every static check and the
fight odds, no random games), book already loaded, odds tables emptied before each run.

    python tools/bench/bench_validate_cpu.py BOOK... [--repeat 7]

CPU time (``time.process_time``) rather than wall time, so that a shared, loaded machine
skews the figures less; prints the median and the min of ``repeat`` runs per book.
"""

from __future__ import annotations

import argparse
import statistics
import time

from dedale.language import load_book
from dedale.rules import odds_shared
from dedale.validator import validate_loaded


def measure(path: str, repeat: int) -> list[float]:
    """The CPU seconds of ``repeat`` validations of the book at ``path``."""
    book = load_book(path)
    times = []
    for _ in range(repeat):
        odds_shared.clear()
        started = time.process_time()
        validate_loaded(book, path, runs=0)
        times.append(time.process_time() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("books", nargs="+")
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()
    for path in options.books:
        times = measure(path, options.repeat)
        print(f"{path}: CPU median {statistics.median(times):.3f} s  min {min(times):.3f} s")


if __name__ == "__main__":
    main()
