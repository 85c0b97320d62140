"""Benchmark: the exact odds of fights at once with exits (rules/odds_group_exits.py).

    python tools/bench/bench_odds_group_exits.py [--runs 3]

Prints, for each fight and Luck policy, the chance to leave alive and the median CPU time
(``time.process_time``) of ``runs`` calls; a fight past the budget prints the error's name.
"""

from __future__ import annotations

import argparse
import statistics
import time

from dedale.rules import load_ruleset
from dedale.rules.odds_exits import Damage, ExitPlan
from dedale.rules.odds_group_exits import group_exit_odds
from dedale.rules.odds_inputs import OddsTooLarge

HERO = (10, 19, 9)  # SKILL, STAMINA, LUCK: the median df-classic hero
CASES = [
    ("2 enemies (8/6, 7/5), not won after 3", ((8, 6, False), (7, 5, False)), {"limit": 3}),
    (
        "2 enemies (8/6, 7/5), threshold 4, one deals 3",
        ((8, 6, False), (7, 5, False)),
        {"threshold": 4, "damages": (Damage("deals", 1, 3),)},
    ),
    (
        "3 enemies (7/4, 7/4, 6/3), not won after 4",
        ((7, 4, False), (7, 4, False), (6, 3, False)),
        {"limit": 4},
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    rules = load_ruleset("df-classic")
    skill, stamina, luck = HERO
    for name, enemies, options in CASES:
        for policy in ("none", "best"):
            times, shown = [], ""
            for _ in range(runs):
                start = time.process_time()
                try:
                    plan = ExitPlan(enemies=enemies, **options)
                    value = group_exit_odds(
                        rules, skill, stamina, plan, luck=luck, luck_policy=policy
                    )
                    shown = f"{value:.2%}"
                except OddsTooLarge as error:
                    shown = type(error).__name__
                times.append(time.process_time() - start)
            print(f"| {name} | {policy} | {shown} | {statistics.median(times):.3f} s |")


if __name__ == "__main__":
    main()
