"""Simulated df-classic fights per second through the real run_fight (emit=False).

    python tools/bench/bench_fights.py [--fights 20000] [--runs 5]

Hero SKILL 10 STAMINA 20 LUCK 9 against SKILL 8 STAMINA 10, Luck prompts answered no
(``AlwaysNo``); the hero's stats are reset between fights. For calibration on a shared
machine it also times a bare Python loop playing the same fight with the same dice
(``random.Random``, no events, no prompts, no log). Prints medians of the runs, in
wall-clock time and in this process's CPU time (``time.process_time``: the figure "on one
core" when other processes share the machine).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dedale.rules import (
    AlwaysNo,
    Character,
    EnemySpec,
    FightSpec,
    RandomSource,
    drive,
    load_ruleset,
    run_fight,
)


def bare_loop(fights: int, seed: int) -> None:
    """The same fight as plain Python: the floor any real implementation is measured by."""
    rand = random.Random(seed).random
    for _ in range(fights):
        hero, enemy = 20, 10
        while hero > 0 and enemy > 0:
            x = int(rand() * 36)  # two faces from one draw, as RandomSource.roll2
            y = int(rand() * 36)
            enemy_as = 8 + x // 6 + x % 6 + 2
            hero_as = 10 + y // 6 + y % 6 + 2
            if hero_as > enemy_as:
                enemy -= 2
            elif enemy_as > hero_as:
                hero -= 2


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ruleset = load_ruleset("df-classic")
    spec = FightSpec((EnemySpec("Orc", {"SKILL": 8, "STAMINA": 10}),))
    start_stats = {"SKILL": 10, "STAMINA": 20, "LUCK": 9}
    hero = Character(stats=dict(start_stats), initial=dict(start_stats))
    decider = AlwaysNo()
    rates, cpu_rates, bare, cpu_bare = [], [], [], []
    for run in range(args.runs):
        rng = RandomSource(run)
        stats = hero.stats
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(args.fights):
            stats.update(start_stats)
            drive(run_fight(ruleset, hero, rng, spec, emit=False), decider)
        rates.append(args.fights / (time.perf_counter() - start))
        cpu_rates.append(args.fights / (time.process_time() - cpu))
        start, cpu = time.perf_counter(), time.process_time()
        bare_loop(args.fights, run)
        bare.append(args.fights / (time.perf_counter() - start))
        cpu_bare.append(args.fights / (time.process_time() - cpu))
    median = statistics.median
    real, floor = median(rates), median(bare)
    print(f"run_fight: median {real:,.0f} fights/s wall, {median(cpu_rates):,.0f} /s CPU")
    print(f"bare loop: median {floor:,.0f} fights/s wall, {median(cpu_bare):,.0f} /s CPU")
    print(f"run_fight at {median(cpu_rates) / median(cpu_bare):.0%} of the bare loop (CPU)")


if __name__ == "__main__":
    main()
