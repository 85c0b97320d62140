"""The fuzz campaign: the suite's generators, run for N minutes, every failure kept.

    python tools/fuzz/campaign.py --minutes 10 --seed 1 [--results fuzz-results]
        [--deadline 5] [--reduce-seconds 40] [--scale 2]
    python tools/fuzz/campaign.py --replay fuzz-results/01-.../reproducer

Input ``i`` of seed ``S`` is drawn from ``random.Random(f"{S}:{i}")`` (grammar-based or a
mutated sample book), so a run is reproducible. Each input runs in a worker process
through load, validate and seeded random play (``tools.fuzz.harness``: a SIGALRM deadline
per phase and a memory cap); the parent kills a worker that does not answer in time (a
hang inside C code) and starts another. Each distinct failure (phase, exception class,
innermost Dédale frame) is shrunk to a small reproducer and saved in its own folder under
``--results`` with its traceback; ``summary.md`` and ``summary.json`` give the inputs
tried and the failures by class.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import time
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.fuzz.grammar_gen import grammar_book  # noqa: E402
from tools.fuzz.harness import PHASES, Outcome, run_path  # noqa: E402
from tools.fuzz.inputs import FuzzInput  # noqa: E402
from tools.fuzz.mutate import mutated_book  # noqa: E402
from tools.fuzz.worker import Worker  # noqa: E402

SAMPLES_PER_FAILURE = 3  # raw failing inputs kept per distinct failure, besides the reproducer
RECHECK_FACTOR = 6  # a timeout's samples run again with this many times the deadline


def make_input(seed: int, index: int, scale: int = 1) -> FuzzInput:
    """Input ``index`` of a campaign with ``seed``: half grammar-based, half mutations."""
    rnd = random.Random(f"{seed}:{index}")
    if rnd.random() < 0.5:
        return grammar_book(rnd, scale)
    return mutated_book(rnd)


# ---------------------------------------------------------------------- saving results
def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:80]


def _save_input(fuzz: FuzzInput, folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    fuzz.write(folder)


def _describe(outcome: Outcome) -> str:
    return (
        f"phase: {outcome.phase}\nerror: {outcome.error}\nwhere: {outcome.where}\n"
        f"message: {outcome.message}\n\n{outcome.traceback}"
    )


class Results:
    """The results folder: one sub-folder per distinct failure, and the summary."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.first: dict[str, tuple[int, FuzzInput, Outcome]] = {}
        self.counts: Counter[str] = Counter()
        self.samples: Counter[str] = Counter()
        self.indices: dict[str, list[int]] = {}  # the inputs that failed (replayable)
        self.kept: dict[str, list[tuple[int, FuzzInput]]] = {}  # the samples saved

    def failure_folder(self, signature: str) -> Path:
        number = list(self.first).index(signature) + 1
        return self.folder / f"{number:02d}-{_slug(signature)}"

    def record(self, index: int, fuzz: FuzzInput, outcome: Outcome) -> None:
        signature = outcome.signature
        self.counts[signature] += 1
        seen = self.indices.setdefault(signature, [])
        if len(seen) < 1000:
            seen.append(index)
        if signature not in self.first:
            self.first[signature] = (index, fuzz, outcome)
        folder = self.failure_folder(signature)
        if self.samples[signature] < SAMPLES_PER_FAILURE:
            self.samples[signature] += 1
            self.kept.setdefault(signature, []).append((index, fuzz))
            sample = folder / "samples" / f"input-{index}"
            _save_input(fuzz, sample)
            (sample.parent / f"input-{index}.traceback.txt").write_text(
                f"origin: {fuzz.origin}\nseed: {fuzz.seed}\n{_describe(outcome)}", "utf-8"
            )


# ---------------------------------------------------------------------- the campaign
def campaign(args: argparse.Namespace) -> int:
    results = Results(Path(args.results))
    options = {"deadline": args.deadline, "runs": args.runs}
    hard = args.deadline * len(PHASES) + 15
    worker = Worker()
    statuses: Counter[str] = Counter()
    started = time.monotonic()
    stop = started + args.minutes * 60
    index = 0
    try:
        while time.monotonic() < stop:
            fuzz = make_input(args.seed, index, args.scale)
            outcome = worker.ask(("run", fuzz, options), hard)
            if outcome is None:
                outcome = Outcome(
                    "failure", "any", "HardTimeout", f"no answer within {hard:g} s (killed)"
                )
            statuses[outcome.status] += 1
            if outcome.failed:
                new = outcome.signature not in results.first
                results.record(index, fuzz, outcome)
                if new:
                    print(f"[{index}] new failure {outcome.signature}: {outcome.message[:120]}")
            index += 1
            if index % 100 == 0:
                spent = time.monotonic() - started
                print(f"[{index}] {spent:.0f} s, {dict(statuses)}", flush=True)
        fuzzing = time.monotonic() - started
        reducing_started = time.monotonic()
        reduced = _reduce_all(results, worker, options, args.reduce_seconds, hard)
        reducing = time.monotonic() - reducing_started
    finally:
        worker.close()
    summary = {
        "command": " ".join(["python", "tools/fuzz/campaign.py", *sys.argv[1:]]),
        "seed": args.seed,
        "minutes": args.minutes,
        "fuzzing_seconds": round(fuzzing, 1),
        "reducing_seconds": round(reducing, 1),
        "inputs": index,
        "statuses": dict(statuses),
        "worker_restarts": worker.restarts,
        "failures": dict(results.counts.most_common()),
        "failures_by_class": dict(_by_class(results.counts).most_common()),
        "reproducers": reduced,
    }
    (results.folder / "summary.json").write_text(json.dumps(summary, indent=2), "utf-8")
    (results.folder / "summary.md").write_text(_summary_text(summary), "utf-8")
    print(_summary_text(summary))
    return 1 if results.counts else 0


def _by_class(counts: Counter[str]) -> Counter[str]:
    classes: Counter[str] = Counter()
    for signature, count in counts.items():
        classes[signature.split(":", 1)[1].split("@", 1)[0]] += count
    return classes


def _reduce_all(
    results: Results, worker: Worker, options: dict, seconds: float, hard: float
) -> dict[str, dict[str, Any]]:
    """Shrink the first input of each distinct failure; save it with its traceback."""
    reduced: dict[str, dict[str, Any]] = {}
    for signature, (index, fuzz, outcome) in results.first.items():
        folder = results.failure_folder(signature)
        _save_input(fuzz, folder / "original")
        small, tries = fuzz, 0
        if outcome.error != "HardTimeout" and seconds > 0:
            # a reduction past its budget is stopped by the parent, never lost
            shrink = dict(options)
            if outcome.error == "Timeout":  # a hang hangs under any deadline: try faster
                shrink["deadline"] = min(options["deadline"], 2.0)
            answer = worker.ask(("reduce", fuzz, signature, shrink, seconds), seconds + hard)
            if answer is not None:
                small, tries = answer
        check = worker.ask(("run", small, options), hard)
        final = check if isinstance(check, Outcome) and check.signature == signature else outcome
        _save_input(small, folder / "reproducer")
        recheck = (
            _recheck_timeouts(results, signature, worker, options)
            if (outcome.error == "Timeout")
            else []
        )
        (folder / "traceback.txt").write_text(_describe(final), "utf-8")
        info = {
            "signature": signature,
            "count": results.counts[signature],
            "first_input": index,
            "inputs": results.indices.get(signature, []),
            "origin": fuzz.origin,
            "seed": fuzz.seed,
            "original_bytes": fuzz.size(),
            "reproducer_bytes": small.size(),
            "reduction_tries": tries,
            "timeout_recheck": recheck,
            "verified": final is check,
            "outcome": asdict(final) | {"traceback": final.traceback[-4000:]},
            "replay": f"python tools/fuzz/campaign.py --replay {folder / 'reproducer'} "
            f"--seed {fuzz.seed}",
        }
        (folder / "info.json").write_text(json.dumps(info, indent=2), "utf-8")
        reduced[signature] = {
            "folder": str(folder),
            "count": info["count"],
            "bytes": [info["original_bytes"], info["reproducer_bytes"]],
            "hangs": [sum(1 for item in recheck if item["hangs"]), len(recheck)],
        }
    return reduced


def _recheck_timeouts(
    results: Results, signature: str, worker: Worker, options: dict
) -> list[dict[str, Any]]:
    """Run the saved samples of a timeout again with six times the deadline: a loop
    still runs, a merely slow input (a busy machine, a costly check) now finishes."""
    longer = dict(options, deadline=options["deadline"] * RECHECK_FACTOR)
    hard = longer["deadline"] * len(PHASES) + 15
    checked = []
    for index, fuzz in results.kept.get(signature, []):
        started = time.monotonic()
        again = worker.ask(("run", fuzz, longer), hard)
        spent = round(time.monotonic() - started, 1)
        hangs = again is None or (again.failed and again.error in ("Timeout", "HardTimeout"))
        ended = "no answer" if again is None else again.signature if again.failed else again.status
        checked.append({"input": index, "hangs": hangs, "seconds": spent, "ended": ended})
    return checked


def _summary_text(summary: dict[str, Any]) -> str:
    lines = [
        "# Fuzz campaign",
        "",
        f"- command: `{summary['command']}`",
        f"- fuzzing: {summary['fuzzing_seconds']} s; reducing: {summary['reducing_seconds']} s",
        f"- inputs tried: {summary['inputs']} ({summary['statuses']})",
        f"- worker restarts (hard hangs): {summary['worker_restarts']}",
        "",
        "| failures | class |",
        "| ---: | --- |",
    ]
    lines += [f"| {count} | {name} |" for name, count in summary["failures_by_class"].items()]
    lines += ["", "| failures | distinct failure (phase:class@where) | reproducer bytes | note |"]
    lines += ["| ---: | --- | --- | --- |"]
    for signature, count in summary["failures"].items():
        reproducer = summary["reproducers"].get(signature, {})
        sizes = reproducer.get("bytes", ["?", "?"])
        hangs, checked = reproducer.get("hangs", [0, 0])
        note = (
            f"{hangs} of {checked} samples still run at {RECHECK_FACTOR}× the deadline"
            if checked
            else ""
        )
        lines.append(f"| {count} | `{signature}` | {sizes[0]} → {sizes[1]} | {note} |")
    return "\n".join(lines) + "\n"


def replay(args: argparse.Namespace) -> int:
    """Run one saved input (a book folder, or its book.dd) and print how it ended."""
    path = Path(args.replay)
    if path.is_dir() and not (path / "book.yaml").exists() and (path / "book.dd").exists():
        path = path / "book.dd"
    outcome = run_path(path, args.seed, deadline=args.deadline, runs=args.runs)
    print(_describe(outcome) if outcome.failed else f"{outcome.status}: {outcome.message}")
    return 1 if outcome.failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--results", default="fuzz-results")
    parser.add_argument("--deadline", type=float, default=5.0, help="seconds per phase")
    parser.add_argument("--runs", type=int, default=2, help="random games per input")
    parser.add_argument("--reduce-seconds", type=float, default=40.0)
    parser.add_argument("--scale", type=int, default=2, help="size of grammar-based books")
    parser.add_argument("--replay", help="run one saved reproducer instead of a campaign")
    args = parser.parse_args(argv)
    if args.replay:
        return replay(args)
    return campaign(args)


if __name__ == "__main__":
    sys.exit(main())
