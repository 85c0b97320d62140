"""``dedale lsp``: the language server for editors, over stdin/stdout (see docs/editors.md).

    dedale lsp

Needs the ``lsp`` extra (``pip install 'dedale[lsp]'``: pygls and lsprotocol).
"""

from __future__ import annotations

import argparse

from dedale.errors import UsageError
from dedale.i18n import tr


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare the subcommand's arguments (none: the editor speaks on stdin/stdout)."""
    parser.add_argument(
        "--stdio", action="store_true", help="talk over stdin/stdout (the default; for editors)"
    )


def run(args: argparse.Namespace) -> int:
    """Serve until the editor closes the connection."""
    try:
        from dedale.lsp.server import serve
    except ImportError as error:
        raise UsageError(
            tr("the language server needs pygls: {reason}", reason=str(error)),
            hint=tr("install it with `pip install 'dedale[lsp]'`"),
        ) from None
    serve()
    return 0
