"""Benchmark: exact d20 fight odds (issue 14.1, 14.11).

    python tools/bench/bench_odds_d20.py --repeat 7

- ``fights``: the validator's fight reports of the 400-paragraph d20 book of
  ``gen_book.py`` (79 duels, every row exact), CPU time in process, the interpreter's import
  (for the FightSpec of each fight) counted apart;
- ``d20_odds``: one exact computation per line-up (a duel, two enemies at once with the
  best target, a duel with an escape and an assault limit), CPU time and states.
Medians (min) of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_book import write_book  # noqa: E402


def _show(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms ({min(values) * 1000:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    import dedale.game.interpreter  # noqa: F401 - imported once, apart
    from dedale.language import load_book
    from dedale.rules import Character, EnemySpec, FightSpec, load_ruleset
    from dedale.rules import odds_d20_attack as laws
    from dedale.rules.odds_d20 import d20_odds
    from dedale.validator.fights import fight_reports
    from dedale.validator.graph import build_graph

    with tempfile.TemporaryDirectory() as tmp:
        book = load_book(write_book(Path(tmp) / "d20", 400, items=50, codewords=20, ruleset="d20"))
    graph = build_graph(book)
    times = []
    for _ in range(args.repeat):
        laws._LAWS.clear()
        started = time.process_time()
        reports = fight_reports(graph, book)
        times.append(time.process_time() - started)
    exact = sum(report.method == "exact" for report in reports)
    print(f"fights: {len(reports)} fights ({exact} exact), CPU {_show(times)}")
    ruleset = load_ruleset("d20")
    stats = {s.id: 10 for s in ruleset.stats} | {"FOR": 14, "DEX": 12, "ACTION": 2, "HP": 18}
    kit = {"sword": 1, "leather armour": 1}
    hero = Character(stats=dict(stats), initial=dict(stats), items=kit)

    def foe(name, ac, attack, hp, weapon="1d6", rd=0):
        return EnemySpec(name, {"AC": ac, "attack": attack, "HP": hp, "RD": rd}, weapon=weapon)

    line_ups = {
        "duel": FightSpec((foe("GUARD", 13, 3, 10),)),
        "two at once": FightSpec((foe("RAT", 12, 2, 6), foe("RAT", 11, 1, 5, "1d4")),
                                 mode="together"),
        "escape + limit": FightSpec((foe("KNIGHT", 14, 4, 12, "1d8", 3),), escape_after=2,
                                    assault_limit=6),
    }  # fmt: skip
    for name, spec in line_ups.items():
        times = []
        for _ in range(args.repeat):
            laws._LAWS.clear()
            started = time.process_time()
            result = d20_odds(ruleset, hero, spec)
            times.append(time.process_time() - started)
        print(f"d20_odds {name:<15}: {result.states:>5} states, CPU {_show(times)}")


if __name__ == "__main__":
    main()
