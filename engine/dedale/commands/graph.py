"""``dedale graph``: the map of a book, as DOT, Mermaid, SVG (through Graphviz) or JSON.

    dedale graph books/first-steps                      # DOT on stdout
    dedale graph books/first-steps --format svg -o map.svg
    dedale graph mybook --format mermaid --around 40 --depth 2

Paragraphs are nodes (endings, fights, tests and hidden paragraphs styled), choices are
edges labelled with their conditions, the validator's structure findings (unreachable, dead
end, no way out) and deadly fights (when their odds take under ``--odds-seconds``) are
marked; each file of the book is a cluster. Exit codes: 0 drawn, 1 the book does not load or
Graphviz is missing for SVG, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dedale.errors import UsageError
from dedale.i18n import tr

FORMATS = ("dot", "mermaid", "svg", "json")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    parser.add_argument("book", help="the book's folder, a single .dd file, or a bundled book")
    parser.add_argument("--format", choices=FORMATS, default="dot", help="output format")
    parser.add_argument(
        "--from", dest="from_paragraph", type=int, metavar="N",
        help="only the paragraphs reachable from paragraph N",
    )  # fmt: skip
    parser.add_argument("--around", type=int, metavar="N", help="only the paragraphs near N")
    parser.add_argument(
        "--depth", type=int, default=2, metavar="K",
        help="with --around: how many steps away, forwards or backwards (default 2)",
    )  # fmt: skip
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE, not stdout")
    parser.add_argument(
        "--odds-seconds", type=float, default=2.0, metavar="S",
        help="time the fight odds may take to mark deadly fights (0: no odds; default 2)",
    )  # fmt: skip
    parser.add_argument("--lang", choices=("fr", "en"), help="language of the marks")


def run(args: argparse.Namespace) -> int:
    """Draw the map; a book that does not load raises its DedaleError (exit code 1)."""
    from dedale.bookmap import around, build_map, from_paragraph
    from dedale.bookmap.render import to_dot, to_json, to_mermaid
    from dedale.language import load_book

    if args.from_paragraph is not None and args.around is not None:
        raise UsageError(tr("--from and --around cannot be used together"))
    if args.depth < 0:
        raise UsageError(tr("--depth must be 0 or more"))
    if args.odds_seconds < 0:
        raise UsageError(tr("--odds-seconds must be 0 or more"))
    from dedale.commands.books import resolve_book

    book = load_book(resolve_book(args.book))
    book_map = build_map(book, args.odds_seconds or None, args.lang)
    if args.from_paragraph is not None:
        book_map = from_paragraph(book_map, args.from_paragraph)
    elif args.around is not None:
        book_map = around(book_map, args.around, args.depth)
    if args.format == "json":
        text = to_json(book_map)
    elif args.format == "mermaid":
        text = to_mermaid(book_map)
    elif args.format == "svg":
        from dedale.bookmap.svg import dot_to_svg

        text = dot_to_svg(to_dot(book_map))
    else:
        text = to_dot(book_map)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise UsageError(
                tr("cannot write {path}: {reason}", path=args.output, reason=error.strerror)
            ) from None
    else:
        sys.stdout.write(text)
    return 0
