"""Output formats of ``dedale validate``: text (Rich), json, github, sarif.

Each module exposes ``render(reports, stream, options)``; paths are shown relative to the
current folder when they are inside it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from dedale.validator.checker import BookReport

FORMATS = ("text", "json", "github", "sarif")

Renderer = Callable[[Sequence["BookReport"], TextIO, int], None]


def display_path(file: str) -> str:
    """``file`` relative to the current folder when inside it, with forward slashes."""
    try:
        relative = os.path.relpath(file)
    except ValueError:
        return Path(file).as_posix()
    if relative.startswith(".."):
        return Path(file).as_posix()
    return Path(relative).as_posix()


def renderer(name: str) -> Renderer:
    """The render function of a format."""
    if name == "text":
        from dedale.validator.report.text import render
    elif name == "json":
        from dedale.validator.report.json import render
    elif name == "github":
        from dedale.validator.report.github import render
    elif name == "sarif":
        from dedale.validator.report.sarif import render
    else:
        raise KeyError(name)
    return render
