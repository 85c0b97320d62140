"""CPU time of the array fill's forward pass (rules/odds_group_exits_array_forward.py) beside
the fill alone, on three goblins at once with ways out, and of the path of fights of a book
(table, then path) with the forward pass and with the state-by-state pass it replaces.

python tools/bench/bench_array_forward.py [RUNS] [BOOK.dd]
"""

from __future__ import annotations

import statistics
import sys
import time
from functools import partial

from dedale.rules import load_ruleset
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_group_exits import GroupExitSolver, group_exit_odds
from dedale.rules.odds_group_exits_array_forward import array_outcomes

GOBLINS = ((5, 5, False), (6, 4, False), (5, 6, False))
WAYS = {"limit 8": {"limit": 8}, "escape 3": {"escape_after": 3},
        "limit 8, threshold 3": {"limit": 8, "threshold": 3}}  # fmt: skip
HEROES = ((7, 14, 7), (9, 19, 9))


def _cpu(run, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def fights(runs: int) -> None:
    rules = load_ruleset("df-classic")
    for name, ways in WAYS.items():
        plan = ExitPlan(enemies=GOBLINS, **ways)
        for skill, stamina, luck in HEROES:
            value = partial(group_exit_odds, rules, skill, stamina, plan, luck=luck,
                            luck_policy="best")  # fmt: skip
            fill = _cpu(value, runs)
            solver = GroupExitSolver(rules, skill, plan, "best", (), False, "best")
            both = _cpu(partial(array_outcomes, solver, stamina, luck), runs)
            found = array_outcomes(solver, stamina, luck)
            print(f"{name}, hero {skill}/{stamina}/{luck}: fill {fill:.2f} s, fill + forward "
                  f"{both:.2f} s CPU; {found.states:,} cells with mass of "
                  f"{solver.filled.cells:,} filled; alive {found.alive:.6f}")  # fmt: skip


def path(book_path: str, runs: int) -> None:
    from dedale.language import load_book
    from dedale.rules import odds_group_exits_forward
    from dedale.validator.fight_path import fight_path
    from dedale.validator.fights import fight_reports
    from dedale.validator.graph import build_graph

    takes = odds_group_exits_forward.array_takes
    for label, route in (("array forward", takes), ("state by state", lambda *a: False)):
        odds_group_exits_forward.array_takes = route
        book = load_book(book_path)
        graph = build_graph(book)
        reports = fight_reports(graph, book)
        cpu = _cpu(partial(fight_path, graph, book, reports, 60), runs)
        found = fight_path(graph, book, reports, 60)
        figures = [(p.level, round(p.win, 4), p.exact) for p in found.heroes]
        print(f"{book_path} path ({label}): {cpu:.2f} s CPU; {figures}")
    odds_group_exits_forward.array_takes = takes


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    fights(count)
    if len(sys.argv) > 2:
        path(sys.argv[2], count)
