"""``dedale validate BOOK...``: the author's checker (see docs/validator.md).

Delegates to ``dedale.validator.cli``. Exit codes: 0 no error (warnings allowed unless
``--strict``), 1 errors, 2 usage error or unreadable path. Never imports Textual.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments."""
    from dedale.validator import cli

    cli.add_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Validate the books and print the report."""
    from dedale.validator import cli

    return cli.run(args)
