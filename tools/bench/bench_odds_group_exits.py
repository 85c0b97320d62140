"""Benchmark: the exact odds of fights at once with exits (rules/odds_group_exits.py).

    python tools/bench/bench_odds_group_exits.py [--runs 3]
    python tools/bench/bench_odds_group_exits.py --luck [--runs 1] [--seconds 60]
    python tools/bench/bench_odds_group_exits.py --goblins [--runs 3] [--scalar]

Prints, for each fight and Luck policy, the chance to leave alive and the median CPU time
(``time.process_time``) of ``runs`` calls; a fight past the budget prints the error's name.
``--luck``: the best Luck of realistic fights at once with an assault limit (issue 14.1/14.5)
for a weak, a median and a strong hero, with the states memoised, the default budget
raised to ``--seconds`` so that the cost itself is measured (with ``--prune-off``: every
state's own maximum, no state settled by the values without Luck). ``--goblins``: three
goblins at once (5/5, 6/4, 5/6) with "not won after 8 assaults" and/or "escape after 2"
against heroes SKILL 7-12, STAMINA 14-24, LUCK 7-12: the best Luck as ``group_exit_odds``
computes it (the array fill, rules/odds_group_exits_array.py: its reached cells and counted
work), and with ``--scalar`` the scalar recursion it replaces (one run, within ``--seconds``).
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


GOBLINS = ((5, 5, False), (6, 4, False), (5, 6, False))
GOBLIN_WAYS = (
    ("not won after 8", {"limit": 8}),
    ("escape after 2", {"escape_after": 2}),
    ("both", {"limit": 8, "escape_after": 2}),
)
GOBLIN_HEROES = ((7, 14, 7), (9, 18, 8), (10, 19, 9), (12, 24, 12))


def goblins_main(runs: int, seconds: float, scalar: bool) -> None:
    rules = load_ruleset("df-classic")
    print("| ways out | hero | no Luck | best Luck | cells | work | CPU (median) | scalar |")
    print("|---|---|---|---|---|---|---|---|")
    for name, ways in GOBLIN_WAYS:
        plan = ExitPlan(enemies=GOBLINS, **ways)
        for skill, stamina, luck in GOBLIN_HEROES:
            plain = group_exit_odds(rules, skill, stamina, plan, luck=luck)
            times, shown, fill = [], "", None
            for _ in range(runs):
                solver = GroupExitSolver(rules, skill, plan, "best", (), False, "best")
                solver.array = True  # as group_exit_odds sets it
                start = time.process_time()
                try:
                    shown = f"{solver.solve(stamina, luck):.4%}"
                    fill = getattr(solver, "filled", None)  # None: sure without Luck
                except OddsTooLarge as error:
                    shown = type(error).__name__
                times.append(time.process_time() - start)
            before = "-"
            if scalar:
                solver = GroupExitSolver(rules, skill, plan, "best", (), False, "best")
                solver.seconds, solver.luck_work = seconds, LUCK_WORK * 100
                start = time.process_time()
                try:
                    found = solver.solve(stamina, luck)
                    before = f"{found:.4%} in {time.process_time() - start:.2f} s"
                except OddsTooLarge:
                    before = f"past {seconds:g} s ({len(solver.memo):,} states)"
            cells, work = (fill.cells, fill.work) if fill else (0, 0)
            print(f"| {name} | {skill}/{stamina}/{luck} | {plain:.4%} | {shown} | {cells:,} | "
                  f"{work:,} | {statistics.median(times):.3f} s | {before} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--luck", action="store_true", help="the best Luck of realistic fights")
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--prune-off", action="store_true")
    parser.add_argument("--goblins", action="store_true", help="three goblins with ways out")
    parser.add_argument("--scalar", action="store_true", help="with --goblins: the scalar too")
    args = parser.parse_args()
    runs = args.runs
    if args.goblins:
        goblins_main(runs, args.seconds, args.scalar)
        return
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
