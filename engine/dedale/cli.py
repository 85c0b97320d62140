"""The ``dedale`` command line: one subcommand per module under dedale.commands.

Each subcommand module exposes ``add_arguments(parser)`` and ``run(args) -> int``; it is
imported only when its subcommand runs, so ``dedale validate`` never imports Textual.
Exit codes: 0 success, 1 error in a book/ruleset/save, 2 usage error (see each command).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from dedale import __version__
from dedale.errors import DedaleError, UsageError

SUBCOMMANDS: dict[str, str] = {
    "play": "Play a book (Textual app, or --plain for stdin/stdout)",
    "validate": "Check a book: load errors, structure, rules, fight odds, random runs",
    "odds": "Exact probability of winning a fight",
    "replay": "Re-run a save's decision log from its seed and check the state",
}


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser (subcommand modules add their own arguments)."""
    parser = argparse.ArgumentParser(
        prog="dedale",
        description="Dédale: play, check and write numbered-paragraph gamebooks.",
    )
    parser.add_argument("--version", action="version", version=f"dedale {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary in SUBCOMMANDS.items():
        module = importlib.import_module(f"dedale.commands.{name}")
        sub_parser = sub.add_parser(name, help=summary, description=summary)
        module.add_arguments(sub_parser)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``dedale`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    module = importlib.import_module(f"dedale.commands.{args.command}")
    try:
        return int(module.run(args))
    except UsageError as error:
        print(f"dedale {args.command}: {error.render()}", file=sys.stderr)
        return 2
    except DedaleError as error:
        print(error.render(), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
