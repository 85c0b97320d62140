"""Benchmark: the fills of fights at once whose Luck choices call the one tie rule
(``rules.odds.luck_gains`` / ``luck_pick``), df-classic, best Luck.

    python tools/bench/bench_group_luck_rule.py [RUNS]
    PYTHONPATH=OTHER_TREE/engine python tools/bench/bench_group_luck_rule.py [RUNS]  # before

Prints the median CPU time (``time.process_time``) of ``RUNS`` calls (3 by default) of: a
table at once by the array fill (8/8 and 7/7, hero 9/16/9), the exact odds with exits at
once by the array fill and state by state (8/6 and 7/5, "not won after 6", hero 9/14/8); and
the states the scalar table's fill (forced) computes within its budget for the first fight
(it stops by time: the count is the figure).
"""

from __future__ import annotations

import statistics
import sys
import time

from dedale.rules import load_ruleset, odds_group, odds_group_fast
from dedale.rules.odds import fight_odds
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_group_exits import GroupExitSolver, group_exit_odds
from dedale.rules.odds_inputs import OddsTooLarge

RULES = load_ruleset("df-classic")
PLAN = ExitPlan(enemies=((8, 6, False), (7, 5, False)), limit=6)


def _table() -> float:
    found = fight_odds(RULES, 9, 16, [(8, 8), (7, 7)], luck=9, luck_policy="best", mode="together")
    return found.win_probability


def _exits_array() -> float:
    return group_exit_odds(RULES, 9, 14, PLAN, luck=8, luck_policy="best", seconds=600.0,
                           luck_work=10**12)  # fmt: skip


def _exits_scalar() -> float:
    solver = GroupExitSolver(RULES, 9, PLAN, "best", (), False, "best")
    solver.array, solver.seconds, solver.luck_work = False, 600.0, 10**12
    return solver.solve(14, 8)


def _timed(call, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        odds_group._TABLES.clear()  # no table kept from the run before
        start = time.process_time()
        value = call()
        times.append(time.process_time() - start)
    return statistics.median(times), value


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for name, call in (
        ("table at once, array fill", _table),
        ("exits at once, array fill", _exits_array),
        ("exits at once, state by state", _exits_scalar),
    ):
        seconds, value = _timed(call, runs)
        print(f"{seconds:.3f} s  {value!r}  {name}")
    odds_group_fast.fits = lambda *args: False  # the scalar fill: it stops by time
    try:
        fight_odds(RULES, 9, 16, [(8, 8), (7, 7)], luck=9, luck_policy="best", mode="together",
                   luck_work=10**9)  # fmt: skip
        print("scalar fill: within its budget")
    except OddsTooLarge as error:
        print(f"scalar fill: {error}")


if __name__ == "__main__":
    main()
