"""``dedale solve`` on a generated 400-paragraph book with 10 items and 10 codewords.

    python tools/bench/bench_solve.py [--runs 3] [--paragraphs 400]

The book (tools/bench/gen_book.py): 400 paragraphs, 10 items and 10 codewords handed out
at gates (every 20 paragraphs, which every path crosses), conditional choices on them
(one paragraph in six asks for an item, one in nine for a codeword), a fight every 50
paragraphs (wounds carried on), a Luck test every 40. Hero SKILL 10 STAMINA 20 LUCK 9,
best Luck policy. Prints the median wall and CPU time of the whole solve and its state count.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from dedale.language import load_book  # noqa: E402
from dedale.solve import solve_book  # noqa: E402
from gen_book import Shape, write_book  # noqa: E402

SHAPE = Shape(fight_every=50, test_every=40, take_every=0, items=10, codewords=10, gate_every=20)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--paragraphs", type=int, default=400)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        book = load_book(write_book(Path(folder), args.paragraphs, shape=SHAPE))
        times, cpu, result = [], [], None
        for _ in range(args.runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            result = solve_book(book, (10, 20, 9), luck_policy="best")
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
    assert result is not None and result.complete
    print(
        f"solve {args.paragraphs} paragraphs, 10 items, 10 codewords: "
        f"median {statistics.median(times):.2f} s over {args.runs} runs "
        f"(min {min(times):.2f}, max {max(times):.2f}; CPU median {statistics.median(cpu):.2f} s);"
        f" {result.states:,} states, "
        f"win {result.win_probability:.6f}"
    )


if __name__ == "__main__":
    main()
