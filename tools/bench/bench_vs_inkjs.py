"""Benchmark: load + check of a 1,000-paragraph book against inkjs compiling a 1,000-knot
ink story of the same shape (issue 14.11: at least 4x faster).

    npm install --prefix /tmp/inkjs inkjs      # once, outside the repository
    python tools/bench/bench_vs_inkjs.py --inkjs /tmp/inkjs --repeat 7 [--paragraphs 1000]

Both stories come from the same plan (tools/bench/gen_book.py): the same prose, the same
choices, the items and codewords given and tested by conditional choices (ink: ``VAR``
booleans, ``~ x = true`` and ``* {x} [...]``), fights and Luck tests as two-way branches
(ink has no fights: a ``{RANDOM(1, 2) == 1: -> a | -> b}``). Measured, medians of
``--repeat`` runs:

- ``dedale``: the whole ``dedale validate --runs 0 --format json`` process (load, every
  static check, the exact fight odds), with the bytecode cache; and in process
  ``load_book`` + ``validate_loaded(runs=0)``;
- ``inkjs``: the whole ``node`` process compiling the story (``new Compiler(source)
  .Compile()`` of ``inkjs/full``, then ``ToJson()``); and in process, the compile alone
  (median of the same number of compiles in one node process, after one warm-up).

All figures are CPU time (user + system; ``process.cpuUsage`` in node): on a shared
machine wall times swing by 2x between identical runs. ``--base ENGINE_DIR`` (another
tree's ``engine/``, e.g. from ``git archive``) runs the processes round-robin instead —
this tree, that tree (``PYTHONPATH``), inkjs, ``--repeat`` times — so that a shared
machine's load falls on the three alike, and prints each median (min) and both ratios.

Without node or inkjs the benchmark says so and stops (exit 0).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_book import ENEMIES, ITEMS, WORDS, _prose, extras_plan, write_book  # noqa: E402

NODE_SCRIPT = r"""
const path = require("path");
const fs = require("fs");
const full = path.join(process.argv[2], "node_modules", "inkjs", "dist", "ink-full.js");
const { Compiler } = require(full);
const source = fs.readFileSync(process.argv[3], "utf8");
const repeat = parseInt(process.argv[4] || "0", 10);
function compile() {
  const story = new Compiler(source).Compile();
  if (!story) throw new Error("ink did not compile");
  return story.ToJson().length;
}
if (repeat === 0) { compile(); process.exit(0); }
compile();  // warm-up
const times = [];
for (let i = 0; i < repeat; i++) {
  const t = process.cpuUsage();
  compile();
  const spent = process.cpuUsage(t);
  times.push((spent.user + spent.system) / 1e6);
}
console.log(JSON.stringify(times));
"""


def _var(name: str) -> str:
    return "v_" + "".join(c if c.isalnum() else "_" for c in name.lower())


def ink_story(total: int, seed: int = 1, items: int = 0, codewords: int = 0) -> str:
    """The ink twin of ``gen_book.write_book(total, seed, items=, codewords=)``."""
    rng = random.Random(seed)
    plan = extras_plan(total, items, codewords, seed) if items or codewords else {}
    names = set(ITEMS)
    for lines in plan.values():
        for line in lines:
            if line.startswith("> take "):
                names.add(line[len("> take ") :])
            elif line.startswith("> set codeword "):
                names.add(line[len("> set codeword ") :])
    out = [f"VAR {_var(name)} = false" for name in sorted(names)]
    out.append("-> k_1")
    for number in range(1, total + 1):
        out.append(f"=== k_{number} ===")
        out.append(_prose(rng).replace("\n", " "))
        extra = plan.get(number) or []
        for line in extra:
            if line.startswith("> take "):
                out.append(f"~ {_var(line[len('> take ') :])} = true")
            elif line.startswith("> set codeword "):
                out.append(f"~ {_var(line[len('> set codeword ') :])} = true")
        gated = []
        for line in extra:
            if line.startswith("->"):
                target = line.split()[1]
                name = line[line.index("(if ") + 4 : line.index(")")]
                name = name.removeprefix("codeword ")
                gated.append(f"* {{{_var(name)}}} [Use it] -> k_{target}")
        targets = [min(total, number + k) for k in (1, 2, 3)]
        if number == total:
            out.append("The end.\n-> END")
            continue
        if number % 5 == 0:
            enemy = rng.choice(ENEMIES)
            rng.randint(5, 10), rng.randint(4, 12)  # the same draws as the book's stats
            out.append(f"A {enemy.lower()} attacks.")
            out.append(f"{{RANDOM(1, 2) == 1: -> k_{targets[0]} | -> END}}")
            continue
        if number % 8 == 0:
            out.append(f"{{RANDOM(1, 2) == 1: -> k_{targets[0]} | -> k_{targets[1]}}}")
            continue
        if number % 7 == 0:
            out.append(f"~ {_var(rng.choice(ITEMS))} = true")
        for k in range(rng.randint(2, 3)):
            text = " ".join(rng.choice(WORDS) for _ in range(5)).capitalize()
            out.append(f"* [{text}] -> k_{targets[k]}")
        if number % 6 == 0:
            out.append(f"* {{{_var(rng.choice(ITEMS))}}} [Use what you carry] -> k_{targets[0]}")
        out += gated
    return "\n".join(out) + "\n"


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _median_cpu(command: list[str], repeat: int, env=None) -> tuple[float, float]:
    """CPU seconds (user + system) of the child process: what one core spends on it,
    whatever the load of a shared machine (wall times swing 2x there)."""
    times = []
    for _ in range(repeat):
        before = _child_cpu()
        subprocess.run(command, capture_output=True, check=True, env=env)
        times.append(_child_cpu() - before)
    return statistics.median(times), min(times)


def _round_robin(dedale: list[str], env: dict, base: Path, ink: list[str], args) -> int:
    """This tree, the ``base`` tree and inkjs, one run each per round (processes' CPU)."""
    runs = {
        "dedale (this tree)": (dedale, env),
        f"dedale ({base})": (dedale, dict(env, PYTHONPATH=str(base))),
        "inkjs compile": (ink, None),
    }
    for command, run_env in runs.values():  # warm: bytecode and user caches
        subprocess.run(command, capture_output=True, check=True, env=run_env)
    times: dict[str, list[float]] = {name: [] for name in runs}
    load = os.getloadavg()[0]
    for _ in range(args.repeat):
        for name, (command, run_env) in runs.items():
            before = _child_cpu()
            subprocess.run(command, capture_output=True, check=True, env=run_env)
            times[name].append(_child_cpu() - before)
    medians = {name: statistics.median(found) for name, found in times.items()}
    ink_median = medians["inkjs compile"]
    print(f"N={args.paragraphs}: round-robin, medians (min) of {args.repeat}, "
          f"load {load:.1f} -> {os.getloadavg()[0]:.1f}")  # fmt: skip
    for name, found in times.items():
        ratio = "" if name == "inkjs compile" else f"  {ink_median / medians[name]:.2f}x"
        print(f"  {name:<32} {medians[name]:.3f} s ({min(found):.3f}){ratio}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inkjs", type=Path, default=Path(os.environ.get("INKJS_DIR", "")))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--paragraphs", type=int, default=1000)
    parser.add_argument("--items", type=int, default=0)
    parser.add_argument("--codewords", type=int, default=0)
    parser.add_argument("--base", type=Path, help="another tree's engine/: round-robin")
    args = parser.parse_args()
    node = shutil.which("node")
    if node is None or not (args.inkjs / "node_modules" / "inkjs").exists():
        print("skipped: needs node and inkjs (npm install --prefix DIR inkjs; --inkjs DIR)")
        return 0
    from dedale.language import load_book
    from dedale.rules import odds_shared
    from dedale.validator import validate_loaded

    n = args.paragraphs
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_book(Path(tmp) / "book", n, items=args.items, codewords=args.codewords)
        story = Path(tmp) / "story.ink"
        story.write_text(ink_story(n, items=args.items, codewords=args.codewords), "utf-8")
        script = Path(tmp) / "compile.js"
        script.write_text(NODE_SCRIPT, encoding="utf-8")
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        dedale = [sys.executable, "-m", "dedale", "validate", "--runs", "0", "--format", "json"]
        subprocess.run([*dedale, str(folder)], capture_output=True, env=env)  # bytecode cache
        ink = [node, str(script), str(args.inkjs), str(story)]
        if args.base is not None:
            return _round_robin([*dedale, str(folder)], env, args.base, [*ink, "0"], args)
        d_median, d_min = _median_cpu([*dedale, str(folder)], args.repeat, env)
        i_median, i_min = _median_cpu([*ink, "0"], args.repeat)
        inside = []
        for _ in range(args.repeat):
            odds_shared.clear()
            started = time.process_time()
            validate_loaded(load_book(folder), str(folder), runs=0)
            inside.append(time.process_time() - started)
        done = subprocess.run([*ink, str(args.repeat)], capture_output=True, check=True, text=True)
        compiles = json.loads(done.stdout)
    print(f"N={n}: {args.items} items, {args.codewords} codewords; medians (min) of {args.repeat}")
    print(f"  dedale validate process  {d_median:.3f} s ({d_min:.3f})")
    print(f"  inkjs compile process    {i_median:.3f} s ({i_min:.3f})")
    print(f"  ratio (processes)        {i_median / d_median:.1f}x")
    print(f"  dedale load+check, in process  {statistics.median(inside):.3f} s ({min(inside):.3f})")
    print(
        f"  inkjs compile, in process      {statistics.median(compiles):.3f} s "
        f"({min(compiles):.3f})"
    )
    print(
        f"  ratio (in process)       {statistics.median(compiles) / statistics.median(inside):.1f}x"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
