"""Exact odds of one df-classic fight with the best Luck policy (milliseconds).

    python tools/bench/bench_odds.py [--runs 20]

Hero SKILL 10 STAMINA 20 LUCK 9 against SKILL 8 STAMINA 10: one full fight_odds call
(value grids, policy, forward pass for expected assaults and distributions). "cold"
clears the cached assault probabilities first.
"""

from __future__ import annotations

import argparse
import statistics
import time

from dedale.rules import fight_odds, load_ruleset
from dedale.rules.odds import _assault_probabilities


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    ruleset = load_ruleset("df-classic")
    for label, clear in (("warm", False), ("cold", True)):
        times = []
        for _ in range(args.runs):
            if clear:
                _assault_probabilities.cache_clear()
            start = time.perf_counter()
            fight_odds(ruleset, 10, 20, [(8, 10)], luck=9, luck_policy="best")
            times.append((time.perf_counter() - start) * 1000)
        print(f"{label}: median {statistics.median(times):.2f} ms over {args.runs} runs")


if __name__ == "__main__":
    main()
