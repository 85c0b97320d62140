"""Benchmark: in-process load time of synthetic books (N = 400, 1,000, 10,000).

    python tools/bench/bench_load.py [--runs 5]

Prints, for each N, the book's size and the median (and min) wall time and the median CPU
time (``process_time``, steadier on a busy machine) of ``runs`` loads of
``dedale.language.load_book``. The parser is built once before timing (as in a real
process that loads several books, the first load also pays ~0.1 s to build it).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dedale.language import load_book  # noqa: E402
from dedale.language.parser import book_parser  # noqa: E402
from gen_book import write_book  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description="Book loading benchmark")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=[400, 1000, 10000])
    args = parser.parse_args()
    started = time.perf_counter()
    book_parser()
    print(f"parser build: {time.perf_counter() - started:.3f} s")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            folder = write_book(Path(tmp) / f"book{n}", n)
            size = sum(p.stat().st_size for p in folder.iterdir())
            times, cpu = [], []
            for _ in range(args.runs):
                t0, c0 = time.perf_counter(), time.process_time()
                book = load_book(folder)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
            assert len(book.paragraphs) == n
            median = statistics.median(times)
            print(
                f"N={n:>6}  {size / 1000:>7.0f} KB  median {median:.3f} s  "
                f"min {min(times):.3f} s  cpu median {statistics.median(cpu):.3f} s  "
                f"({median / n * 1e6:.0f} µs/paragraph)"
            )


if __name__ == "__main__":
    main()
