"""Simulated df-classic fights per second through the real run_fight (emit=False).

    python tools/bench/bench_fights.py [--fights 20000] [--runs 5]

Hero SKILL 10 STAMINA 20 LUCK 9 against SKILL 8 STAMINA 10, Luck prompts answered no.
Prints the median of the runs.
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fights", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    ruleset = load_ruleset("df-classic")
    spec = FightSpec((EnemySpec("Orc", {"SKILL": 8, "STAMINA": 10}),))
    stats = {"SKILL": 10, "STAMINA": 20, "LUCK": 9}
    hero = Character(stats=dict(stats), initial=dict(stats))
    decider = AlwaysNo()
    rates = []
    for run in range(args.runs):
        rng = RandomSource(run)
        start = time.perf_counter()
        for _ in range(args.fights):
            drive(run_fight(ruleset, hero.copy(), rng, spec, emit=False), decider)
        rates.append(args.fights / (time.perf_counter() - start))
    print(f"fights/s median {statistics.median(rates):,.0f} over {args.runs} runs")


if __name__ == "__main__":
    main()
