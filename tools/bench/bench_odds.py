"""Exact odds of one df-classic fight with the best Luck policy (milliseconds).

    python tools/bench/bench_odds.py [--runs 20]

Hero SKILL 10 STAMINA 20 LUCK 9 against SKILL 8 STAMINA 10: one full fight_odds call
(value grids, policy, forward pass for expected assaults and distributions). "cold"
clears the cached assault probabilities first. "win only" is ``fight_odds(win_only=True)``
(no forward pass) with the shared tables emptied first, as for the first fight of its
kind in ``dedale validate``. "at once" rows: a fight against two (three) enemies at once
(rules/odds_group.py), the best target, no Luck / best Luck, win only, from cold tables.
"""

from __future__ import annotations

import argparse
import statistics
import time

from dedale.rules import fight_odds, load_ruleset, odds_group, odds_shared
from dedale.rules.odds_inputs import _assault_odds, lucky_table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    ruleset = load_ruleset("df-classic")
    for label, clear, win_only in (
        ("warm", False, False),
        ("cold", True, False),
        ("win only, cold", True, True),
    ):
        times = []
        for _ in range(args.runs):
            odds_shared.clear()
            if clear:
                _assault_odds.cache_clear()
                lucky_table.cache_clear()
            start = time.perf_counter()
            fight_odds(ruleset, 10, 20, [(8, 10)], luck=9, luck_policy="best", win_only=win_only)
            times.append((time.perf_counter() - start) * 1000)
        print(f"{label}: median {statistics.median(times):.2f} ms over {args.runs} runs")
    at_once = (
        ("at once, 2 enemies, no Luck", [(7, 5), (8, 6)], "none", 24, 12),
        ("at once, 3 enemies, no Luck", [(6, 5), (6, 5), (7, 6)], "none", 24, 12),
        ("at once, 2 enemies, best Luck", [(7, 2), (8, 2)], "best", 6, 4),
    )
    for label, enemies, policy, stamina, luck in at_once:
        times = []
        for _ in range(max(1, args.runs // 4)):
            odds_group._TABLES.clear()
            start = time.perf_counter()
            fight_odds(
                ruleset, 10, stamina, enemies, luck=luck, luck_policy=policy, mode="together",
                win_only=True,
            )  # fmt: skip
            times.append((time.perf_counter() - start) * 1000)
        print(f"{label}: median {statistics.median(times):.1f} ms over {len(times)} runs")


if __name__ == "__main__":
    main()
