"""Exact odds of one df-classic fight with the best Luck policy (milliseconds).

    python tools/bench/bench_odds.py [--runs 20]

Hero SKILL 10 STAMINA 20 LUCK 9 against SKILL 8 STAMINA 10: one full fight_odds call
(value grids, policy, forward pass for expected assaults and distributions). "cold"
clears the cached assault probabilities first. "win only" is ``fight_odds(win_only=True)``
(no forward pass) with the shared tables emptied first, as for the first fight of its
kind in ``dedale validate``. "at once" rows: a fight against two (three) enemies at once
(rules/odds_group.py, the array table of odds_group_fast.py), the best target, no Luck /
best Luck, hero SKILL 10, from cold tables: win only, and with the forward pass (end
states, as ``dedale solve`` and the path of fights need).
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
        ("at once, greymane's hounds (df24), best Luck", [(6, 5), (6, 5), (7, 6)], "best", 24, 12),
        ("at once, 3 enemies 6/7/8 STAMINA, best Luck", [(7, 6), (8, 7), (9, 8)], "best", 24, 12),
        ("at once, 3 alike 8 STAMINA, best Luck", [(8, 8), (8, 8), (8, 8)], "best", 24, 12),
    )
    df24 = load_ruleset("df24")
    odds_group.FILL_SECONDS = 60.0  # (the bench measures; the bound is not the question)
    for label, enemies, policy, stamina, luck in at_once:
        rules = df24 if "df24" in label else ruleset
        for win_only in (True, False):
            times, cpu = [], []
            for _ in range(max(1, args.runs // 4)):
                odds_group._TABLES.clear()
                start, start_cpu = time.perf_counter(), time.process_time()
                fight_odds(
                    rules, 10, stamina, enemies, luck=luck, luck_policy=policy,
                    mode="together", win_only=win_only,
                )  # fmt: skip
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
            kind = "win only" if win_only else "with the forward pass"
            median = statistics.median(times)
            print(
                f"{label}, {kind}: median {median:.1f} ms "
                f"({statistics.median(cpu):.1f} ms CPU) over {len(times)} runs"
            )


if __name__ == "__main__":
    main()
