"""``dedale play [BOOK]``: play a book in the Textual player, or with ``--plain`` in plain text.

Exit codes: 0 victory (or quit), 3 death, 4 input ended before an ending (``--plain``),
1 error in the book, 2 usage error. See docs/playing.md.
"""

from __future__ import annotations

import argparse
import os


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    from dedale.player.options import add_player_arguments

    parser.add_argument("book", nargs="?", help="book folder or .dd file (default: bundled)")
    parser.add_argument("--plain", action="store_true", help="plain text on stdin/stdout")
    parser.add_argument(
        "--screen-reader",
        action="store_true",
        help="plain text read well aloud (implies --plain; or set DEDALE_SCREEN_READER=1)",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the dice")
    parser.add_argument("--lang", choices=["fr", "en"], default=None, help="interface language")
    parser.add_argument(
        "--hero", nargs="+", type=int, default=None, help="fixed stats, e.g. --hero 10 20 9"
    )
    parser.add_argument("--class", dest="class_name", default=None, help="character class")
    parser.add_argument("--name", default=None, help="the hero's name")
    parser.add_argument(
        "--gender", choices=["f", "m"], default=None, help="the hero's gender (French sentences)"
    )
    parser.add_argument("--load", default=None, metavar="SAVE", help="resume a saved game")
    parser.add_argument(
        "--record",
        default=None,
        metavar="FILE",
        help="write the game as a test plan when it ends or is quit (dedale test replays it)",
    )
    add_player_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Run the subcommand."""
    from dedale.plain.screen_reader import wanted

    if args.plain or wanted(args.screen_reader, os.environ):
        from dedale.plain.command import run_plain

        code = run_plain(args)
    else:
        from dedale.player import run_player

        code = run_player(args)
    if getattr(args, "record", None):
        from dedale.cli import error_language
        from dedale.plans.record import record_after_play

        lang = error_language(args)  # the command's or the book's language
        record_after_play(args.record, getattr(args, "game_played", None), lang)
    return code
