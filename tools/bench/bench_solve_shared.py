"""A solve with the fights' values shared between nodes (``dedale.solve.duel._shared``),
or without (``--alone``), in CPU seconds; and how often a fill was found shared.

    python tools/bench/bench_solve_shared.py books/etoiles-mortes 10,20,8 Baroudeur
    python tools/bench/bench_solve_shared.py books/etoiles-mortes 10,20,8 Baroudeur --alone
"""

from __future__ import annotations

import argparse
import resource
import time

from dedale.language import load_book
from dedale.solve import duel
from dedale.solve.graph import solve_book


class _Counted(dict):
    """The shared values, counting the look-ups that found one and those that did not."""

    found = 0
    missed = 0

    def get(self, key, default=None):
        value = dict.get(self, key, default)
        if value is None:
            _Counted.missed += 1
        else:
            _Counted.found += 1
        return value


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("book")
    parser.add_argument("hero", help="the stats, comma-separated")
    parser.add_argument("class_name", nargs="?")
    parser.add_argument("--luck", default="none")
    parser.add_argument("--alone", action="store_true", help="no value shared")
    parser.add_argument("--max-states", type=int, default=400_000)
    args = parser.parse_args()
    if args.alone:
        duel._shared = lambda table: {}
    else:

        def shared(table):
            found = getattr(table, "_shared_values", None)
            if found is None:
                found = table._shared_values = _Counted()
            return found

        duel._shared = shared
    book = load_book(args.book)
    hero = tuple(int(value) for value in args.hero.split(","))
    started = time.process_time()
    result = solve_book(
        book, hero, args.class_name, luck_policy=args.luck, max_states=args.max_states
    )
    cpu = time.process_time() - started
    memory = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(
        f"{'alone' if args.alone else 'shared'}: {result.win_probability!r} "
        f"{result.states} states complete={result.complete} {cpu:.1f} s CPU {memory} MB; "
        f"shared fills found {_Counted.found}, computed {_Counted.missed}"
    )


if __name__ == "__main__":
    main()
