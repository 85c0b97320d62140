"""Benchmark: the exact reliques DP of the validator (issue 14.11), in process.

    python tools/bench/bench_reliques_dp.py --repeat 7

The 400-paragraph reliques book of ``bench_scale.py`` (tools/bench/gen_book.py) holds 79
fights of 14 line-ups whose enemies have two sets of characteristics: the validator runs 6
DPs (those two enemies x its weakest, median and strongest heroes, each giving the rows
without and with Courage). This times those 6 ``reliques_wins`` calls, each from a cold
model (CPU time: median and min of ``--repeat`` runs), and prints the chances (to compare
before/after a change: they must not move).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_book import write_book  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    from dedale import ast
    from dedale.language import load_book
    from dedale.rules.odds_reliques import reliques_wins
    from dedale.validator.fights import walk
    from dedale.validator.fights_reliques import ReliquesCalculator
    from dedale.validator.graph import build_graph

    with tempfile.TemporaryDirectory() as tmp:
        folder = write_book(Path(tmp) / "speed", 400, items=50, codewords=20, ruleset="reliques")
        book = load_book(folder)
    graph = build_graph(book)
    calculator = ReliquesCalculator(graph, book)
    seen, jobs = set(), []
    for number in sorted(graph.nodes):
        for fight in walk(graph.nodes[number].paragraph.body):
            if not isinstance(fight, ast.Fight):
                continue
            spec = calculator.rehearsal.spec(fight)
            enemies = tuple(tuple(sorted(e.stats.items())) for e in spec.enemies)
            if enemies in seen:
                continue
            seen.add(enemies)
            ruleset = calculator.rehearsal.ruleset(fight)
            jobs += [(hero, ruleset, character, spec) for hero, character in calculator.heroes]
    times, wins = [], []
    for _ in range(args.repeat):
        started = time.process_time()
        wins = [reliques_wins(r, c.copy(), s, models={}) for _, r, c, s in jobs]
        times.append(time.process_time() - started)
    for (hero, _, _, spec), found in zip(jobs, wins, strict=True):
        print(f"{spec.enemies[0].stats} {hero.level:<9} none {found['none']!r} "
              f"best {found['best']!r}")  # fmt: skip
    print(f"{len(jobs)} DPs: CPU {statistics.median(times):.3f} s (min {min(times):.3f})")


if __name__ == "__main__":
    main()
