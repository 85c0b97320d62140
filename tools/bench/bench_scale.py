"""Benchmark: the state-aware checks at scale, and ``dedale validate --runs 0`` as a whole
process (issue 14.8, 14.11).

    python tools/bench/bench_scale.py --repeat 7
    python tools/bench/bench_scale.py --repeat 7 --rulesets df-classic d20 reliques

Books from tools/bench/gen_book.py:
- ``scale``: 400 paragraphs, 60 items and 20 codewords, each given in one paragraph and
  tested by a conditional choice 3-40 paragraphs later; the states the explorer finds, in
  process (CPU time of ``explore_states``), compact and, for comparison, today's full
  states cut at 200,000 (what gave I050);
- ``speed``: 400 paragraphs, 79 fights, 50 items, 20 codewords, once per ruleset; the
  whole ``dedale validate --runs 0 --format json`` process, CPU time of the child
  (user + system: what one core spends, whatever the machine's load), and wall time;
- ``small``: 15 paragraphs (3 fights), the same process.

The processes run with Python's bytecode cache (in a temporary PYTHONPYCACHEPREFIX, warmed
by one run), as an installed package does. Medians (min) of ``--repeat`` runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_book import write_book  # noqa: E402


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process_times(command: list[str], repeat: int, env) -> tuple[list[float], list[float]]:
    """CPU and wall seconds of ``repeat`` runs of ``command``."""
    cpu, wall = [], []
    for _ in range(repeat):
        before, started = _child_cpu(), time.perf_counter()
        subprocess.run(command, capture_output=True, check=False, env=env)
        wall.append(time.perf_counter() - started)
        cpu.append(_child_cpu() - before)
    return cpu, wall


def _show(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} s ({min(values):.3f})"


def scale(folder: Path, repeat: int) -> None:
    from dedale.language import load_book
    from dedale.validator import state_explorer, state_start
    from dedale.validator.graph import build_graph
    from dedale.validator.rules_checks import collect_uses

    book = load_book(folder)
    graph = build_graph(book)
    uses = collect_uses(graph)
    times, found = [], None
    for _ in range(repeat):
        started = time.process_time()
        found = state_start.explore_states(graph, book, uses, (), None)
        times.append(time.process_time() - started)
    assert found is not None
    print(
        f"scale: {len(uses.items_needed)} items and {len(uses.codewords_tested)} codewords "
        f"tested; compact: {found.count:,} states, truncated {found.truncated}, "
        f"CPU {_show(times)}"
    )
    saved = state_explorer.MAX_STATES
    state_explorer.MAX_STATES = 200_000
    try:
        started = time.process_time()
        full = state_start.explore_states(graph, book, uses, (), None, compact=False)
        spent = time.process_time() - started
    finally:
        state_explorer.MAX_STATES = saved
    assert full is not None
    print(f"       full states (today's): truncated {full.truncated} at 200,000, {spent:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--rulesets", nargs="*", default=["df-classic", "df24", "df48.5", "d20", "reliques"]
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        command = [sys.executable, "-m", "dedale", "validate", "--runs", "0", "--format", "json"]
        scale(write_book(Path(tmp) / "scale", 400, items=60, codewords=20), args.repeat)
        small = write_book(Path(tmp) / "small", 15)
        subprocess.run([*command, str(small)], capture_output=True, env=env)  # warm the cache
        cpu, wall = process_times([*command, str(small)], args.repeat, env)
        print(f"small (15 paragraphs): process CPU {_show(cpu)}, wall {_show(wall)}")
        for ruleset in args.rulesets:
            folder = write_book(
                Path(tmp) / f"speed-{ruleset}", 400, items=50, codewords=20, ruleset=ruleset
            )
            cpu, wall = process_times([*command, str(folder)], args.repeat, env)
            print(f"speed {ruleset:<10}: process CPU {_show(cpu)}, wall {_show(wall)}")


if __name__ == "__main__":
    main()
