"""Benchmark: the exact odds of fights at once with exits (rules/odds_group_exits.py).

    python tools/bench/bench_odds_group_exits.py [--runs 3]
    python tools/bench/bench_odds_group_exits.py --luck [--runs 1] [--seconds 60]

Prints, for each fight and Luck policy, the chance to leave alive and the median CPU time
(``time.process_time``) of ``runs`` calls; a fight past the budget prints the error's name.
``--luck``: the best Luck of realistic fights at once with an assault limit (issue 14.1/14.5)
for a weak, a median and a strong hero, with the states memoised, the default budget
raised to ``--seconds`` so that the cost itself is measured (with ``--prune-off``: every
state's own maximum, no state settled by the values without Luck).
"""

from __future__ import annotations

import argparse
import statistics
import time

from dedale.rules import load_ruleset
from dedale.rules.odds_exits import Damage, ExitPlan
from dedale.rules.odds_group_exits import LUCK_WORK, GroupExitSolver, group_exit_odds
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


LUCK_CASES = [
    ("2 wolves (6/5, 6/5), not won after 6", ((6, 5, False), (6, 5, False)), 6),
    ("2 enemies (8/6, 7/5), not won after 10", ((8, 6, False), (7, 5, False)), 10),
    (
        "3 enemies (7/4, 7/4, 6/3), not won after 6",
        ((7, 4, False), (7, 4, False), (6, 3, False)),
        6,
    ),
]
LUCK_HEROES = ((7, 14, 7), (10, 19, 9), (12, 24, 12))  # weak, median, strong (SKILL, STAMINA, LUCK)


def luck_main(runs: int, seconds: float, prune: bool) -> None:
    rules = load_ruleset("df-classic")
    print("| fight | hero | no Luck | best Luck | states | CPU (median) |")
    print("|---|---|---|---|---|---|")
    for name, enemies, limit in LUCK_CASES:
        plan = ExitPlan(enemies=enemies, limit=limit)
        for skill, stamina, luck in LUCK_HEROES:
            plain = group_exit_odds(rules, skill, stamina, plan, luck=luck)
            times, shown, states = [], "", 0
            for _ in range(runs):
                solver = GroupExitSolver(rules, skill, plan, "best", (), False, "best")
                solver.seconds, solver.luck_work, solver.prune = seconds, LUCK_WORK * 100, prune
                start = time.process_time()
                try:
                    shown = f"{solver.solve(stamina, luck):.4%}"
                except OddsTooLarge as error:
                    shown = type(error).__name__
                times.append(time.process_time() - start)
                states = len(solver.memo)
            hero = f"{skill}/{stamina}/{luck}"
            print(f"| {name} | {hero} | {plain:.4%} | {shown} | {states:,} | "
                  f"{statistics.median(times):.2f} s |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--luck", action="store_true", help="the best Luck of realistic fights")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--prune-off", action="store_true")
    args = parser.parse_args()
    runs = args.runs
    if args.luck:
        luck_main(runs, args.seconds, not args.prune_off)
        return
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
