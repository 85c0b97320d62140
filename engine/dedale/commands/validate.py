"""``dedale validate BOOK``: load a book and report every load error.

Exit codes: 0 the book loads (a one-line summary is printed), 1 the book has errors (each
is printed with its source line and a caret), 2 the path is not a book. Never imports
Textual. The validator issue adds its checks and output formats on top of this.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    parser.add_argument("book", metavar="BOOK", help="a book folder or a single .dd file")


def summary(book) -> str:  # noqa: ANN001 - dedale.book.Book
    """The one-line description of a loaded book."""
    ruleset = getattr(book.ruleset, "name", None) or book.meta.ruleset
    count = len(book.paragraphs)
    files = len(book.files)
    return (
        f"{book.meta.title}: {count} paragraph{'s' if count != 1 else ''}, "
        f"ruleset {ruleset}, {files} file{'s' if files != 1 else ''} — OK"
    )


def run(args: argparse.Namespace) -> int:
    """Load the book; print its errors (exit 1) or its summary (exit 0)."""
    from dedale.errors import BookLoadError
    from dedale.language import load_book

    try:
        book = load_book(args.book)
    except BookLoadError as error:
        print(error.render(), file=sys.stderr)
        count = len(error.errors)
        print(f"\n{count} error{'s' if count != 1 else ''} in {args.book}", file=sys.stderr)
        return 1
    print(summary(book))
    return 0
