"""``dedale test BOOK [PLAN…] [--format text|json|github|sarif] [--lang fr|en]``: play test
plans through the interpreter (default: every ``*.plan`` of the book's ``tests/`` folder).

Exit codes: 0 every plan went as written; 1 a plan failed (each mismatch is reported at its
plan line), or the book does not load; 2 usage error (no plan found). See docs/plans.md.
"""

from __future__ import annotations

import argparse
import sys

from dedale.i18n import LANGUAGES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    from dedale.plans.report import FORMATS

    parser.add_argument("book", help="book folder or .dd file (or a bundled book's name)")
    parser.add_argument(
        "plans", nargs="*", metavar="PLAN", help="plan files (default: BOOK/tests/*.plan)"
    )
    parser.add_argument(
        "--format", choices=FORMATS, default="text", help="output format (default: text)"
    )
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=None,
        help="language of the report (default: each plan's)",
    )


def run(args: argparse.Namespace) -> int:
    """Run the plans and print the report on stdout."""
    from dedale.commands.books import resolve_book
    from dedale.errors import DedaleError, UsageError
    from dedale.i18n import tr
    from dedale.language import load_book
    from dedale.plans.report import render
    from dedale.plans.suite import book_not_loaded, default_plans, run_plans
    from dedale.validator.report.language import declared_language

    path = resolve_book(args.book)
    if not path.exists():
        raise UsageError(tr("{path}: no such file or folder", path=str(path)))
    plans = list(args.plans) or default_plans(path)
    if not plans:
        raise UsageError(
            tr("no plan to run in {path}", path=str(path)),
            hint=tr("write plans in the book's tests/ folder (*.plan), or name them"),
        )
    try:
        book = load_book(path)
    except DedaleError as error:  # reported in the chosen format, at the book's lines
        results = [book_not_loaded(path, error)]
        lang = args.lang or declared_language(path)
    else:
        results = run_plans(book, plans)
        lang = args.lang or getattr(book.meta, "language", None) or "en"
    if args.lang:
        for result in results:
            result.lang = args.lang
    render(args.format, results, sys.stdout, lang)
    return int(any(not result.passed for result in results))
