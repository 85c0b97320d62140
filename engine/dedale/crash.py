"""What a person sees when Dédale itself fails: a short message and a crash report file.

An exception that is not a :class:`dedale.errors.DedaleError` is a bug in Dédale, never the
reader's or the author's mistake. :func:`report_crash` writes its traceback to a file
(``dedale-crash-*.txt`` in the temporary folder) and returns the message to print: what
failed, where the details are, and where a bug report goes. Saves are never touched, so the
autosave of a game in progress stays as it was at the last choice.
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback

from dedale import __version__
from dedale.i18n import tr

BUG_REPORTS = "the Dédale issue tracker (see 'Reporting a bug' in README.md)"
"""Where a bug report goes."""


def write_crash_report(error: BaseException, context: str) -> str | None:
    """Write the traceback of ``error`` to a new file; its path, or None if none can be written."""
    lines = [
        f"Dédale {__version__} crashed in: {context}",
        f"Python {sys.version.split()[0]} on {sys.platform}",
        f"Command line: {' '.join(sys.argv)}",
        "",
        *traceback.format_exception(type(error), error, error.__traceback__),
    ]
    try:
        handle, name = tempfile.mkstemp(prefix="dedale-crash-", suffix=".txt")
        with os.fdopen(handle, "w", encoding="utf-8", errors="replace") as stream:
            stream.write("\n".join(line.rstrip("\n") for line in lines) + "\n")
    except OSError:
        return None
    return name


def report_crash(error: BaseException, context: str) -> str:
    """Write the crash report and return the message for the person (several lines)."""
    path = write_crash_report(error, context)
    kind = type(error).__name__
    lines = [
        tr(
            "{context} stopped on an internal error ({kind}): this is a bug in Dédale, "
            "not a mistake of yours.",
            context=context,
            kind=kind,
        )
    ]
    if path is not None:
        lines.append(tr("The details are in {path}.", path=path))
    lines.append(tr("Please report it, with that file, on {where}.", where=BUG_REPORTS))
    lines.append(tr("Your saves are untouched: the autosave holds the game as of the last choice."))
    return "\n".join(lines)
