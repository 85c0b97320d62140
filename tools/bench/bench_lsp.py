"""Time the language server's diagnostics as you type, over a real stdio session.

    python tools/bench/bench_lsp.py [BOOK] --edits 15

Copies BOOK (default: the largest sample book) to a temporary folder, starts
``python -m dedale lsp``, opens its first paragraph file, then changes one choice's number
back and forth; each edit is timed from the didChange sent to the publishDiagnostics
received. The server waits its debounce (0.3 s) before checking: the figure minus the
debounce is the work (load with the unsaved text, quick checks, publication).
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.lsp.client import Client  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("book", nargs="?", default=str(ROOT / "books" / "le-puits-des-ombres"))
    parser.add_argument("--edits", type=int, default=15)
    args = parser.parse_args()
    from dedale.lsp.server import DEBOUNCE

    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "book"
        shutil.copytree(args.book, folder)
        page = sorted(folder.glob("*.dd"))[0]
        text = page.read_text("utf-8")
        arrow = re.search(r"^-> (\d+)", text, re.MULTILINE)
        if arrow is None:
            print("no choice to edit in", page)
            return 1
        broken = text[: arrow.start(1)] + "9999" + text[arrow.end(1) :]
        client = Client(cwd=folder)
        client.initialize(folder)
        document = client.open(page, text)
        client.wait_diagnostics(document, 30)
        times = []
        for edit in range(args.edits):
            started = time.perf_counter()
            client.replace(document, broken if edit % 2 == 0 else text, edit + 2)
            client.wait_diagnostics(document, 30)
            times.append(time.perf_counter() - started)
        client.close()
    work = [t - DEBOUNCE for t in times]
    size = sum(path.stat().st_size for path in Path(args.book).glob("*.dd"))
    print(f"book: {Path(args.book).name} ({size} bytes of .dd)")
    print(
        f"edit to diagnostics ({len(times)} edits): median {statistics.median(times) * 1000:.0f} ms"
        f" (debounce {DEBOUNCE * 1000:.0f} ms + work {statistics.median(work) * 1000:.0f} ms;"
        f" work min {min(work) * 1000:.0f}, max {max(work) * 1000:.0f})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
