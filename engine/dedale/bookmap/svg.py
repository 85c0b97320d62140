"""SVG through Graphviz's ``dot`` program, when it is installed."""

from __future__ import annotations

import shutil
import subprocess

from dedale.errors import DedaleError
from dedale.i18n import tr

DOT_SECONDS = 60
"""How long ``dot`` may take to lay out a map (a very large book: use --around)."""


class GraphvizMissing(DedaleError):
    """Graphviz's ``dot`` is not installed."""


def dot_to_svg(dot_source: str) -> str:
    """Lay out a DOT graph with Graphviz and return the SVG text."""
    program = shutil.which("dot")
    if program is None:
        raise GraphvizMissing(
            tr("SVG needs Graphviz's `dot` program, which is not installed"),
            hint=tr(
                "install Graphviz (apt-get install graphviz, brew install graphviz), "
                "or use --format dot, mermaid or json"
            ),
        )
    try:
        done = subprocess.run(
            [program, "-Tsvg"], input=dot_source.encode("utf-8"), capture_output=True,
            timeout=DOT_SECONDS, check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise DedaleError(
            tr("Graphviz took more than {seconds} seconds", seconds=DOT_SECONDS),
            hint=tr("draw a part of the book with --around N --depth K"),
        ) from None
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip()
        raise DedaleError(tr("Graphviz failed: {reason}", reason=reason))
    return done.stdout.decode("utf-8")
