"""Benchmark: ``dedale validate`` on synthetic books (N = 400, 1,000, 10,000).

    python tools/bench/bench_validate.py [--repeat 3] [--sizes 400 1000 10000] [--games 1000]

For each N, the median (and min) of ``repeat`` runs of:
- ``process``: the whole command as a new process, ``--runs 0`` (load, structure, rules,
  state-aware reachability and exact fight odds; no random games), in this environment;
- ``process+pyc``: the same with Python's bytecode cache on (as for any installed package:
  ``PYTHONDONTWRITEBYTECODE`` unset, the cache in a temporary ``PYTHONPYCACHEPREFIX``,
  warmed by one run first); with ``PYTHONDONTWRITEBYTECODE=1`` every process compiles the
  package's ~60 modules again (~0.15-0.2 s);
- ``static``: the same checks in process, book already loaded (validator time alone),
  then split into ``graph`` (paragraph graph, structure, rules and state-aware checks) and
  ``odds`` (exact fight odds; cached per distinct enemy line-up, so it saturates); the rules
  core's shared odds tables are emptied before each in-process run (a cold process's work);
- ``games``: ``--games`` random playthroughs in process (N = 400 only, the target's size);
- ``estimated`` (``--estimated``, N = 400 only): the same book with every fight made "all at
  once" against two enemies (no exact method: the validator estimates the odds by a seeded
  simulation of the real fight code), the whole process and the odds alone. The generated
  fights draw their enemies at random, so nearly every fight is a distinct line-up (the
  worst case for the memo).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dedale.language import load_book  # noqa: E402
from dedale.rules import odds_shared  # noqa: E402
from dedale.validator import validate_loaded  # noqa: E402
from dedale.validator.fights import fight_reports  # noqa: E402
from dedale.validator.graph import build_graph  # noqa: E402
from dedale.validator.rules_checks import check_rules, collect_uses  # noqa: E402
from dedale.validator.state_reach import check_states  # noqa: E402
from dedale.validator.structure import check_structure  # noqa: E402
from gen_book import write_book  # noqa: E402


def timed(action, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description="dedale validate benchmark")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="*", default=[400, 1000, 10000])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--estimated", action="store_true", help="also the all-at-once book")
    args = parser.parse_args()
    command = [sys.executable, "-m", "dedale.validator.cli", "--runs", "0", "--format", "json"]
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            folder = write_book(Path(tmp) / f"book{n}", n)
            book = load_book(folder)

            def process(folder=folder, env=None):
                subprocess.run([*command, str(folder)], capture_output=True, check=False, env=env)

            with_pyc = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            with_pyc["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
            process(env=with_pyc)  # writes the bytecode cache

            def process_pyc(folder=folder, env=with_pyc):
                process(folder, env)

            def static(book=book, folder=folder):
                odds_shared.clear()
                validate_loaded(book, str(folder), runs=0)

            def graph_checks(book=book):
                graph = build_graph(book)
                uses = collect_uses(graph)
                check_structure(graph, book, ())
                check_rules(graph, book, uses)
                check_states(graph, book, uses, ())

            def odds(book=book):
                odds_shared.clear()
                fight_reports(build_graph(book), book)

            for name, action in (
                ("process", process),
                ("process+pyc", process_pyc),
                ("static", static),
                ("graph", graph_checks),
                ("odds", odds),
            ):
                median, best = timed(action, args.repeat)
                print(
                    f"N={n:>6}  {name:<11} median {median:.3f} s  min {best:.3f} s  "
                    f"({median / n * 1e6:.0f} µs/paragraph)"
                )
            if n == 400 and args.games:
                report = validate_loaded(book, str(folder), runs=0)
                fights = len(report.fights)

                def games(book=book, folder=folder):
                    validate_loaded(book, str(folder), runs=args.games)

                median, best = timed(games, args.repeat)
                print(
                    f"N={n:>6}  games       median {median:.3f} s  min {best:.3f} s  "
                    f"({args.games} random games + static checks, {fights} fights)"
                )
            if n == 400 and args.estimated:
                estimated(Path(tmp) / "together400", folder, command, with_pyc, args.repeat)


ENEMY = re.compile(r"> fight\n(> enemy [^\n]*)")


def together(source: Path, target: Path) -> Path:
    """A copy of the book at ``source`` whose fights are all at once, against the written
    enemy and a second one (a rat of SKILL 5, STAMINA 4)."""
    target.mkdir(parents=True, exist_ok=True)
    for path in source.iterdir():
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".dd":
            text = ENEMY.sub(r"> fight all at once\n\1\n> enemy RAT SKILL 5 STAMINA 4", text)
        (target / path.name).write_text(text, encoding="utf-8")
    return target


def estimated(target: Path, source: Path, command, env, repeat: int) -> None:
    folder = together(source, target)
    book = load_book(folder)

    def process():
        subprocess.run([*command, str(folder)], capture_output=True, check=False, env=env)

    def odds():
        fight_reports(build_graph(book), book)

    reports = fight_reports(build_graph(book), book)
    rows = [o for r in reports for o in r.odds]
    distinct = len({id(r.odds) for r in reports})
    played = sum(o.samples or 0 for o in {id(r.odds): r for r in reports}.values() for o in o.odds)
    for name, action in (("est.process", process), ("est.odds", odds)):
        median, best = timed(action, repeat)
        print(
            f"N=   400  {name:<11} median {median:.3f} s  min {best:.3f} s  "
            f"({len(reports)} all-at-once fights, {distinct} distinct, {len(rows)} rows, "
            f"{played} simulated fights)"
        )


if __name__ == "__main__":
    main()
