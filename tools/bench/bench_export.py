"""Benchmark: the print export's text and HTML (build_document + render_html) of synthetic
books (N = 400, 1,000, 10,000) and of the largest sample book.

    python tools/bench/bench_export.py [--runs 5]

Prints, for each book, the median (and min) wall time and the median CPU time of ``runs``
builds of :func:`dedale.export.build.build_document` and renders of
:func:`dedale.export.html.render_html`; the book is loaded once, before timing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dedale.export.build import build_document  # noqa: E402
from dedale.export.html import render_html  # noqa: E402
from dedale.language import load_book  # noqa: E402
from gen_book import write_book  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[2] / "books" / "le-puits-des-ombres"


def measure(name: str, folder: Path, runs: int) -> None:
    book = load_book(folder)
    build_document(book)  # the catalogues are read once per process
    builds, renders, cpu = [], [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        document = build_document(book)
        t1 = time.perf_counter()
        page = render_html(document)
        builds.append(t1 - t0)
        renders.append(time.perf_counter() - t1)
        cpu.append(time.process_time() - c0)
    n = len(book.paragraphs)
    print(
        f"{name:>22}  {n:>6} §  build median {statistics.median(builds):.3f} s "
        f"(min {min(builds):.3f})  html median {statistics.median(renders):.3f} s  "
        f"cpu median {statistics.median(cpu):.3f} s  {len(page) / 1000:.0f} KB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Print export benchmark")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=[400, 1000, 10000])
    args = parser.parse_args()
    measure(SAMPLE.name, SAMPLE, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            measure(f"synthetic N={n}", write_book(Path(tmp) / f"book{n}", n), args.runs)


if __name__ == "__main__":
    main()
