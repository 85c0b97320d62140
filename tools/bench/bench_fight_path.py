"""Benchmark: the path of fights alone (``dedale.validator.fight_path``), in process.

    python tools/bench/bench_fight_path.py BOOK... [--repeat 5]

Loads each book and computes its fight odds once, then runs ``fight_path`` ``repeat``
times and prints the minimum CPU time (``time.process_time``), the labels the searches
expanded and whether a search bound was hit.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def main() -> None:
    from dedale.language import load_book
    from dedale.validator.fight_path import fight_path
    from dedale.validator.fights import fight_reports
    from dedale.validator.graph import build_graph

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("books", nargs="+")
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    total = 0.0
    for name in options.books:
        book = load_book(Path(name))
        graph = build_graph(book)
        reports = fight_reports(graph, book)
        times = []
        path = None
        for _ in range(options.repeat):
            started = time.process_time()
            path = fight_path(graph, book, reports, None)
            times.append(time.process_time() - started)
        total += min(times)
        labels = path.labels if path is not None else 0
        bounded = path.bounded if path is not None else False
        print(f"{name}: min {min(times) * 1000:.0f} ms CPU, {labels} labels, bounded {bounded}")
    print(f"total {total:.2f} s")


if __name__ == "__main__":
    main()
