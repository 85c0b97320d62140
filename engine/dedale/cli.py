"""The ``dedale`` command line: one subcommand per module under dedale.commands.

Each subcommand module exposes ``add_arguments(parser)`` and ``run(args) -> int``; it is
imported only when its subcommand runs, so ``dedale validate`` never imports Textual.
Exit codes: 0 success, 1 error in a book/ruleset/save, 2 usage error (see each command),
:data:`EXIT_CRASH` a bug in Dédale (the traceback is written to a crash report, see
:mod:`dedale.crash`), :data:`EXIT_BROKEN_PIPE` when the reader of the output went away
(``dedale odds --json | head -c 100``): every command then stops quietly.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import sys

from dedale import __version__
from dedale.cli_usage import usage_messages
from dedale.errors import DedaleError, UsageError

EXIT_CRASH = 70
"""A bug in Dédale (EX_SOFTWARE): an exception that is not a DedaleError."""
EXIT_BROKEN_PIPE = 141
"""The output pipe was closed (128 + SIGPIPE, as a shell reports a command killed by it)."""

SUBCOMMANDS: dict[str, str] = {
    "play": "Play a book (Textual app, or --plain for stdin/stdout)",
    "validate": "Check a book: load errors, structure, rules, fight odds, random runs",
    "odds": "Exact probability of winning a fight",
    "replay": "Re-run a save's decision log from its seed and check the state",
    "books": "List the books bundled with Dédale (dedale play NAME plays one)",
    "new": "Write a small starter book in a new folder (French or English keywords)",
    "graph": "Draw the map of a book (DOT, Mermaid, SVG through Graphviz, JSON)",
    "lsp": "Language server for editors (diagnostics, completion, rename...) over stdio",
    "test": "Play a book's test plans (tests/*.plan) and report each mismatch",
    "solve": "Best-play chance to win a whole book, and its walkthrough",
    "serve": "Play a book in a browser (the Textual player through textual-serve)",
    "export": "The book for print or e-readers: PDF, HTML, EPUB (--shuffle renumbers it)",
}


ALL = object()
"""``build_parser(only=ALL)``: every subcommand's arguments."""


def build_parser(only: object = ALL) -> argparse.ArgumentParser:
    """The argument parser. Every subcommand is listed; its module is imported to add its
    arguments only when ``only`` is ALL or its name (``main`` passes the subcommand of the
    command line, so that ``dedale validate`` imports no other command's module)."""
    parser = argparse.ArgumentParser(
        prog="dedale",
        description="Dédale: play, check and write numbered-paragraph gamebooks.",
    )
    parser.add_argument("--version", action="version", version=f"dedale {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary in SUBCOMMANDS.items():
        sub_parser = sub.add_parser(name, help=summary, description=summary)
        if only is ALL or only == name:
            importlib.import_module(f"dedale.commands.{name}").add_arguments(sub_parser)
    return parser


_WHOLE = re.compile(r"-?\d+")


def values_last(argv: list[str], options: tuple[str, ...] = ("--hero",)) -> list[str]:
    """``argv`` with each of ``options`` and its whole numbers moved to the end when a word
    that is not an option follows them: ``--hero 9 18 9 book/`` would give ``book/`` to
    ``--hero`` (which takes any number of values) and fail; ``book/ --hero 9 18 9`` parses."""
    words = list(argv)
    for option in options:
        if option not in words:
            continue
        start = words.index(option)
        end = start + 1
        while end < len(words) and _WHOLE.fullmatch(words[end]):
            end += 1
        if end > start + 1 and end < len(words) and not words[end].startswith("-"):
            words = words[:start] + words[end:] + words[start:end]
    return words


def chosen_command(argv: list[str]) -> str | None:
    """The subcommand named on the command line: its first word that is not an option."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in SUBCOMMANDS else None
    return None


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``dedale`` console script. With ``argv`` None (the process's own
    command line: the console script, ``python -m dedale``) a command of
    :data:`QUICK_EXIT` ends the process itself once done (:func:`quick_exit`)."""
    tune_gc()
    words = values_last(sys.argv[1:] if argv is None else argv)
    parser = build_parser(chosen_command(words))
    with usage_messages(words, os.environ):
        args = parser.parse_args(words)
    if args.command is None:
        parser.print_help()
        return 2
    code = _run_command(args)
    if argv is None and args.command in QUICK_EXIT:
        quick_exit(code)
    return code


def _run_command(args: argparse.Namespace) -> int:
    module = importlib.import_module(f"dedale.commands.{args.command}")
    gc.freeze()  # the modules' objects live as long as the process: no collection walks them
    try:
        return int(module.run(args))
    except BrokenPipeError:
        silence_stdout()
        return EXIT_BROKEN_PIPE
    except UsageError as error:
        print(f"dedale {args.command}: {error.render(lang=error_language(args, error))}",
              file=sys.stderr)  # fmt: skip
        return 2
    except DedaleError as error:
        print(error.render(lang=error_language(args, error)), file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # noqa: BLE001 - a bug: reported, never a silent exit 0
        from dedale.crash import report_crash

        print(report_crash(error, f"dedale {args.command}"), file=sys.stderr)
        return EXIT_CRASH


QUICK_EXIT = frozenset({"validate", "odds"})
"""The commands whose process ends without freeing its objects one by one (see
:func:`quick_exit`): they start no thread and hold no resource that needs more than the
exit handlers."""


def quick_exit(code: int) -> None:
    """End the process now with ``code``: flush stdout and stderr, run the exit handlers
    (``atexit``: the dataclass cache's writer, logging), then ``os._exit``, without the
    interpreter's teardown, which frees every object of the process one by one (a
    validation's syntax tree, graphs, state sets and odds grids: 0.04-0.06 s of a
    1,000-paragraph book's 0.5 s, issue 14.11). The output is the same. When a flush fails
    (a closed pipe) or another thread still runs, the interpreter ends as usual instead."""
    import atexit
    import threading

    if threading.active_count() > 1:
        raise SystemExit(code)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001 - the usual ending reports it, as before
        raise SystemExit(code) from None
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # noqa: BLE001
        raise SystemExit(code) from None
    os._exit(code)


GC_THRESHOLDS = (100_000, 20, 100)
"""The garbage collector's thresholds in a ``dedale`` process (Python's are 700, 10, 10).
A command builds large, long-lived structures (the book's syntax tree, the checks' graphs,
state sets and odds grids) and little cyclic garbage (reference counting frees the rest):
at Python's thresholds the collector ran ~400 times in the validation of a 400-paragraph
book, three of them full collections walking every object, for 0.15-0.25 s of CPU (a
fifth of the process). Cycles are still collected, every 100,000 new container objects (at
50,000 the checks of a 1,000-paragraph book, whose objects peak at ~55,000 in the path of
fights, ran one collection of ~8-10 ms for nothing, issue 14.11)."""


def tune_gc() -> None:
    """Set :data:`GC_THRESHOLDS` (the ``dedale`` command only: the library leaves the
    collector of the program that imports it alone)."""
    gc.set_threshold(*GC_THRESHOLDS)


def error_language(args: argparse.Namespace, error: DedaleError | None = None) -> str | None:
    """The language an error is told in: its own, else the command's ``--lang``, else the
    language its book declares (a French book's ``dedale play`` errors are French)."""
    if error is not None and error.lang:
        return error.lang
    lang = getattr(args, "lang", None)
    if isinstance(lang, str) and lang:
        return lang
    book = getattr(args, "book", None)
    if not isinstance(book, str) or not book:
        return None
    is_book = os.path.isfile(os.path.join(book, "book.yaml")) or (
        book.endswith(".dd") and os.path.isfile(book)
    )
    if is_book:  # (a folder that is not a book yet, for `dedale new`, says nothing)
        from dedale.validator.report.language import declared_language

        return declared_language(book)
    return None


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that the interpreter's final flush cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    raise SystemExit(main())
