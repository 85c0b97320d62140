"""``dedale replay SAVE [--book BOOK]``: re-run a save's decision log from its seed.

Exit codes: 0 the replay reaches exactly the saved state (a one-line summary is printed);
1 it does not (the first difference is printed), or the save or the book cannot be used;
2 usage error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dedale.i18n import tr


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    parser.add_argument("save", help="the save file to replay")
    parser.add_argument(
        "--book", default=None, help="the book (default: the book recorded in the save)"
    )


def run(args: argparse.Namespace) -> int:
    """Run the subcommand."""
    from dedale.errors import UsageError
    from dedale.game.saving import load_for_replay, replay_save
    from dedale.language import load_book
    from dedale.saves import check_book

    data = load_for_replay(args.save)
    book_path = args.book or data.extra.get("book_path")
    if not isinstance(book_path, str) or not book_path:  # dedale.saves checks its type
        raise UsageError(tr("the save does not record its book"), hint=tr("give it with --book"))
    try:
        found = Path(book_path).exists()
    except (OSError, ValueError):  # a name too long for the system, a NUL byte
        found = False
    if not found:
        raise UsageError(
            tr("no book at {book_path}", book_path=book_path), hint=tr("give the book with --book")
        )
    book = load_book(book_path)
    check_book(data, book.title, args.save)
    result = replay_save(book, data)
    if result.difference is not None:
        print(
            f"replay of {args.save} differs after {result.decisions} decisions: "
            f"{result.difference}",
            file=sys.stderr,
        )
        return 1
    where = f"paragraph {result.paragraph}" if result.paragraph is not None else "the start"
    ending = f", {result.outcome}" if result.outcome else ""
    print(
        f"replay of {args.save}: {result.decisions} decisions from seed {data.seed} reach "
        f"the saved state exactly ({where}{ending})"
    )
    return 0
