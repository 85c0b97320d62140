"""``dedale new FOLDER [--lang fr|en] [--ruleset NAME]``: write a small starter book.

The book (see :mod:`dedale.commands.starter`) uses French or English keywords per
``--lang`` and validates clean under ``dedale validate --strict``. The folder must not exist
or be empty: nothing is ever overwritten. Exit codes: 0 written, 2 usage error.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from dedale.errors import UsageError
from dedale.i18n import tr


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    parser.add_argument("folder", help="the folder to create for the book")
    parser.add_argument(
        "--lang", choices=["fr", "en"], default="fr", help="keywords and interface (default fr)"
    )
    parser.add_argument("--ruleset", default="df-classic", help="built-in ruleset name")


def run(args: argparse.Namespace) -> int:
    """Write the starter book."""
    from dedale.commands.starter import BOOK_YAML, FIRST_FILE, PARAGRAPHS
    from dedale.rules.loader import builtin_names

    names = builtin_names()
    if args.ruleset not in names:
        raise UsageError(
            tr("unknown ruleset {name!r}", name=args.ruleset),
            hint=tr("built-in rulesets: {names}", names=", ".join(names)),
        )
    folder = Path(args.folder)
    try:
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise UsageError(
                tr("{folder} already exists and is not empty", folder=str(folder)),
                hint=tr("give a new folder: dedale new never overwrites a file"),
            )
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "book.yaml").write_text(
            BOOK_YAML[args.lang].format(ruleset=args.ruleset), encoding="utf-8"
        )
        (folder / FIRST_FILE[args.lang]).write_text(PARAGRAPHS[args.lang], encoding="utf-8")
    except OSError as error:
        raise UsageError(
            tr("cannot write {folder}: {reason}", folder=str(folder), reason=error.strerror or "")
        ) from None
    print(tr("A new book is in {folder}.", folder=str(folder)))
    print(tr("Check it:  dedale validate --strict {folder}", folder=str(folder)))
    print(tr("Play it:   dedale play {folder}", folder=str(folder)))
    return 0
