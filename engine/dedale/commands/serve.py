"""``dedale serve [BOOK]``: play a book in a browser (the Textual player through textual-serve).

Exit codes: 0 stopped with Ctrl-C (or SIGTERM), 1 error in the book, 2 usage error (no such
book, port in use, textual-serve missing). See docs/web.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    parser.add_argument("book", nargs="?", help="book folder or .dd file (default: bundled)")
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where the browsers' saves go (default: ~/.local/share/dedale/web)",
    )
    parser.add_argument("--lang", choices=["fr", "en"], default=None, help="interface language")
    parser.add_argument(
        "--max-games", type=int, default=8, help="games played at once, at most (default 8)"
    )
    parser.add_argument(
        "--max-sessions",
        type=int,
        default=1000,
        help="browsers whose saves are kept, at most (default 1000)",
    )
    parser.add_argument(
        "--no-odds", action="store_true", help="hide the chance-of-winning hint in fights"
    )
    parser.add_argument(
        "--turn-to",
        action=argparse.BooleanOptionalAction,
        default=None,
        help='choices say where they lead ("Turn to 7"; default: on for a French book)',
    )


def run(args: argparse.Namespace) -> int:
    """Run the subcommand."""
    from dedale.errors import DedaleError, UsageError
    from dedale.i18n import tr, translate
    from dedale.language import load_book
    from dedale.player.launch import book_path
    from dedale.player.texts import normalise_language

    path = book_path(args)
    if not 0 < args.port < 65536:
        raise UsageError(tr("--port must be between 1 and 65535, not {port}", port=args.port))
    for option, value in (("--max-games", args.max_games), ("--max-sessions", args.max_sessions)):
        if value < 1:
            raise UsageError(tr("{option} must be at least 1", option=option))
    try:
        book = load_book(path)
    except DedaleError as error:
        error.lang = normalise_language(args.lang or _declared(path))
        raise
    lang = normalise_language(args.lang or getattr(book.meta, "language", None))
    try:
        from dedale.web.server import BookServer, ServedBook, extra_play_options
        from dedale.web.sessions import SessionFolders, default_data_dir
    except ImportError as error:  # the `web` extra is not installed
        raise UsageError(
            tr("dedale serve needs textual-serve ({reason})", reason=str(error)),
            hint=tr("install it with: pip install 'dedale[web]'"),
        ) from None
    from dedale.web.guard import loopback

    if not loopback(args.host):
        warning = tr(
            "warning: {host} is not a loopback address: anyone who can reach this machine on "
            "port {port} can play and write saves on its disk.",
            host=args.host,
            port=args.port,
        )
        print(translate(warning, lang), file=sys.stderr)
    os.environ.pop("DEDALE_SCREEN_READER", None)  # the browser shows the Textual player
    served = ServedBook(
        path=path.resolve(),
        title=book.title or path.name,
        lang=lang,
        play_options=tuple(extra_play_options(args.lang, args.no_odds, args.turn_to)),
    )
    folders = SessionFolders((args.data_dir or default_data_dir()).resolve(), args.max_sessions)
    problem = folders.prepare()
    if problem is not None:
        raise UsageError(
            tr(
                "cannot keep saves in {folder}: {reason}",
                folder=str(folders.sessions),
                reason=problem,
            ),
            hint=tr("choose a folder this user can write in with --data-dir"),
        )
    server = BookServer(
        served,
        host=args.host,
        port=args.port,
        folders=folders,
        max_games=args.max_games,
        say=lambda text: print(text, flush=True),
    )
    try:
        server.serve()
    except UsageError as error:
        error.lang = lang
        raise
    print(translate(tr("Server stopped."), lang), flush=True)
    return 0


def _declared(path: Path) -> str | None:
    """The language a book declares (for its load errors), read without loading it."""
    from dedale.player.preview import read_preview

    return read_preview(path).language
