"""Random playthroughs of the synthetic 400-paragraph book through the real interpreter.

    python tools/bench/bench_play.py [--paragraphs 400] [--games 300] [--runs 5] [--loud]

Generates the book with gen_book.py (seed 1) in a temporary folder, then plays ``--games``
random games per run with the random tester (quiet mode: no events built, prompts only;
``--loud`` builds every event as a front end would see them). Hero SKILL 12 STAMINA 24
LUCK 12 so that games last. Times are CPU seconds of this process (time.process_time), so
that other work on the machine does not skew them. Prints the medians of the runs:
playthroughs per second, choices (choice prompts answered) per second and prompts per
second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dedale.game import Game  # noqa: E402
from dedale.game.random_player import RandomPlayer  # noqa: E402
from dedale.language import load_book  # noqa: E402
from gen_book import write_book  # noqa: E402


def run_once(book, games: int, first_seed: int, quiet: bool) -> tuple[float, int, int]:
    """Play ``games`` games; returns (seconds, choices, prompts)."""
    choices = prompts = 0
    start = time.process_time()
    for seed in range(first_seed, first_seed + games):
        game = Game.new(book, seed, hero=(12, 24, 12), name="Bench", quiet=quiet)
        result = RandomPlayer(seed).play(game)
        if result.error is not None:
            raise SystemExit(f"game {seed} failed: {result.error}")
        choices += result.choices
        prompts += len(result.decisions)
    return time.process_time() - start, choices, prompts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--paragraphs", type=int, default=400)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--loud", action="store_true", help="build every event (front end)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        book = load_book(write_book(Path(folder), args.paragraphs, seed=1))
    games, choices, prompts = [], [], []
    for run in range(args.runs):
        seconds, chosen, asked = run_once(book, args.games, run * args.games, not args.loud)
        games.append(args.games / seconds)
        choices.append(chosen / seconds)
        prompts.append(asked / seconds)
    mode = "loud (events built)" if args.loud else "quiet (random tester)"
    print(
        f"{args.paragraphs}-paragraph book, {mode}, {args.games} games x {args.runs} runs: "
        f"median {statistics.median(games):,.0f} playthroughs/s, "
        f"{statistics.median(choices):,.0f} choices/s, "
        f"{statistics.median(prompts):,.0f} prompts/s"
    )


if __name__ == "__main__":
    main()
