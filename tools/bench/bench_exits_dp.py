"""CPU time of the exact odds with exits (rules/odds_exits.py), float and fraction solvers.

    python tools/bench/bench_exits_dp.py [RUNS]

Two fights with Luck at its best (SKILL 10 STAMINA 22 LUCK 11): two enemies in turn with an
assault limit, and an enemy whose blows raise a counter an exit reads; the median CPU
seconds of RUNS runs (default 5) of the float DP, then of one run of the same solver in
fractions (:class:`dedale.solve.exact_exits.ExactExits`) on the smaller fight.
"""

from __future__ import annotations

import statistics
import sys
import time

from dedale.rules import load_ruleset
from dedale.rules.odds_exits import Event, ExitPlan, _Solver
from dedale.solve.exact_exits import ExactExits

RULES = load_ruleset("df-classic")
PLANS = (
    ExitPlan(enemies=((9, 20, False), (10, 18, False)), limit=12),
    ExitPlan(
        enemies=((9, 14, False),),
        counters=(("bites", 0),),
        events=(Event("it_wounds", counters=(("bites", "add", 1),)),),
        exits=(lambda values: values["bites"] >= 5,),
        caps=(("bites", 5),),
    ),
)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5  # bounded: RUNS runs of two fights
    times = []
    for _ in range(runs):
        start = time.process_time()
        for plan in PLANS:
            _Solver(RULES, 10, plan, "best", (), False).solve(22, 11)
        times.append(time.process_time() - start)
    print(f"float exits DP: median {statistics.median(times):.3f} s CPU ({runs} runs)")
    start = time.process_time()
    value = ExactExits(RULES, 10, PLANS[1], "best", (), False).solve(22, 11)
    print(f"fraction exits DP (second fight): {time.process_time() - start:.3f} s CPU, {value}")


if __name__ == "__main__":
    main()
