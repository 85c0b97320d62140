"""Check: a speed-up changes no result. Saves, then compares, the whole output (stdout and
stderr) of ``dedale validate --format json --runs 0`` on the benchmark books, the sample books and
the validator fixtures (issue 14.11).

    python tools/bench/same_reports.py save /tmp/before      # on the tree before the change
    python tools/bench/same_reports.py compare /tmp/before   # on the tree after it

The benchmark books are the ones ``bench_scale.py`` and ``bench_vs_inkjs.py`` write
(``gen_book.write_book``: 15 paragraphs; 400 paragraphs with 50 items, 20 codewords and the
fights of each ruleset; 1,000 paragraphs). ``--quick`` leaves out the fixtures. Each run has
a time budget (``--timeout`` seconds); a run that passes it is reported, not waited for.
A report that differs is run again (``--retries``): a figure cut by a time budget (the
best Luck of a fight at once: "... 3 seconds of computation, 8,703 states") changes with
the machine's load, on any tree. Exit status 1 when any output still differs or is missing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_book import write_book  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ("df-classic", "df24", "df48.5", "d20", "reliques")


def books(tmp: Path, quick: bool) -> dict[str, Path]:
    """Every book to compare, by a stable name."""
    found = {"bench-small": write_book(tmp / "small", 15)}
    for ruleset in RULESETS:
        found[f"bench-{ruleset}"] = write_book(
            tmp / ruleset, 400, items=50, codewords=20, ruleset=ruleset
        )
    found["bench-1000"] = write_book(tmp / "book1000", 1000)
    for sample in sorted((ROOT / "books").iterdir()):
        if sample.is_dir():
            found[f"books-{sample.name}"] = sample
    if not quick:
        for fixture in sorted((ROOT / "tests" / "books_extra" / "validator").glob("*.dd")):
            found[f"fixture-{fixture.stem}"] = fixture
    return found


def report(book: Path, timeout: float) -> dict[str, str]:
    """The outputs of one validation (a digest of stdout, stderr in full, the exit status)."""
    command = [sys.executable, "-m", "dedale", "validate", "--format", "json", "--runs", "0"]
    command.append(str(book))
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"timeout": f"over {timeout} s"}
    return {
        "stdout": hashlib.sha256(done.stdout).hexdigest(),
        "stderr": done.stderr.decode("utf-8", "replace"),
        "status": str(done.returncode),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("save", "compare"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("--quick", action="store_true", help="no validator fixtures")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument(
        "--retries", type=int, default=1, help="runs again a report that differs (default 1)"
    )
    options = parser.parse_args()
    saved = options.folder / "reports.json"
    options.folder.mkdir(parents=True, exist_ok=True)
    # the books are written at the same place both times: the reports name their paths
    written = options.folder / "books"
    books_at = books(written, options.quick)
    found = {name: report(book, options.timeout) for name, book in books_at.items()}
    if options.action == "save":
        saved.write_text(json.dumps(found, indent=1, sort_keys=True), encoding="utf-8")
        print(f"saved {len(found)} reports in {saved}")
        return 0
    before = json.loads(saved.read_text(encoding="utf-8"))
    differ = [name for name in found if before.get(name) != found[name]]
    for _ in range(options.retries):  # a figure cut by a time budget varies with the load
        retried = {name: report(books_at[name], options.timeout) for name in differ}
        differ = [name for name in differ if before.get(name) != retried[name]]
    for name in differ:
        print(f"differs: {name}: {before.get(name)} -> {found[name]}")
    print(f"{len(found) - len(differ)} of {len(found)} reports identical")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
