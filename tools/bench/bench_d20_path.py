"""CPU time of the fight table and of the path of fights of books (d20 or any ruleset).

python tools/bench/bench_d20_path.py BOOK.dd [BOOK.dd ...]
"""

from __future__ import annotations

import sys
import time

from dedale.language import load_book
from dedale.validator.fight_path import fight_path
from dedale.validator.fights import fight_reports
from dedale.validator.graph import build_graph


def main(paths: list[str]) -> None:
    for path in paths:
        book = load_book(path)
        graph = build_graph(book)
        start = time.process_time()
        reports = fight_reports(graph, book)
        table = time.process_time()
        found = fight_path(graph, book, reports, 60)
        done = time.process_time()
        labels = found.labels if found is not None else 0
        print(f"{path}: table {table - start:.2f} s CPU, path {done - table:.2f} s CPU, "
              f"{labels} labels, cut {found is not None and found.cut}")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
