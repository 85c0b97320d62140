"""Benchmark: exact odds of d20 fights the book acts in (issue 14.1).

    python tools/bench/bench_odds_d20_acting.py --repeat 3

Each line-up is a one-paragraph d20 book (the hero of ``tests/rules/test_odds_d20_acting``:
FOR 14, DEX 12, ACTION 3, a sword, 24 HP): the states the exact DP solves and its CPU time
(``rules/odds_d20_acting.d20_acting_odds``, the best target), medians (min) of ``--repeat``
runs; then ``dedale validate --runs 0`` of the fixture book with four such fights, CPU time of
the whole call in process.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

LINE_UPS = {
    "viper 40 HP, bites and an exit": (
        "> enemy VIPER AC 12 attack +4 damage 1d6 HP 40\n"
        "> when it wins an assault: gain 1 bites\n> end the fight when bites >= 3 -> 3\n",
        "",
    ),
    "troll 60 HP, half, +2, 5 won": (
        "> enemy TROLL AC 12 attack +4 damage 1d8 HP 60\n> it takes half\n"
        "> against it: attack +2 (if sword)\n> after 5 assaults won -> 3\n",
        "",
    ),
    "ogre 30 HP, assault table": (
        "> enemy OGRE AC 12 attack +3 damage 1d8 HP 30\n> each assault roll 1d6\n"
        "> 1: lose 2 HP\n> 2: gain 1 bites\n> 6 -> 4\n> end the fight when bites >= 3 -> 3\n",
        "",
    ),
    "two at once, 12 HP each": (
        "> enemy A AC 12 attack +2 damage 1d6 HP 12\n> it deals 4\n"
        "> enemy B AC 11 attack +1 damage 1d4 HP 12\n"
        "> when it wins an assault: gain 1 bites\n> end the fight when bites >= 3 -> 3\n",
        " all at once",
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    from dedale.game.rehearsal import FightRehearsal
    from dedale.rules.odds_d20_acting import d20_acting_odds
    from dedale.validator import validate_path
    from dedale.validator.fight_plan_d20 import d20_plan_of

    from tests.rules.test_odds_d20_acting import book_of, hero

    for name, (lines, mode) in LINE_UPS.items():
        book, fight = book_of(Path(tempfile.mkdtemp()), lines, mode)
        character = hero(24)
        plan = d20_plan_of(fight, book.ruleset, dict(character.stats), frozenset(character.items))
        spec = FightRehearsal(book).spec(fight)
        times, states = [], 0
        for _ in range(args.repeat):
            started = time.process_time()
            found = d20_acting_odds(book.ruleset, character, spec, plan, budget=10**7)
            times.append(time.process_time() - started)
            states = found.states
        print(f"{name}: {states:,} states, {statistics.median(times):.3f} s ({min(times):.3f})")
    fixture = ROOT / "tests/books_extra/validator/d20-book-acts-exact"
    times = []
    for _ in range(args.repeat):
        started = time.process_time()
        validate_path(fixture, runs=0)
        times.append(time.process_time() - started)
    print(f"validate --runs 0 {fixture.name}: {statistics.median(times):.3f} s ({min(times):.3f})")


if __name__ == "__main__":
    main()
