"""The Lark grammars shipped as ``dedale.grammar``: their text and their table cache.

Building LALR tables takes 0.05-0.3 s a grammar; Lark can keep them in a file. They are kept
in the user's cache folder (dedale.user_cache), keyed by the grammar's text and Lark's
version. ``DEDALE_NO_CACHE=1`` disables it.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
from functools import lru_cache
from importlib import resources

from dedale.user_cache import cache_folder


def grammar_text(filename: str) -> str:
    """The text of ``grammar/<filename>`` (read with importlib.resources)."""
    return resources.files("dedale.grammar").joinpath(filename).read_text("utf-8")


_VERSION = re.compile(r"""^__version__\s*(?::\s*str\s*)?=\s*["']([^"']+)["']""", re.M)


@lru_cache(maxsize=1)
def lark_version() -> str:
    """Lark's version, read from its package's ``__init__.py`` without importing it (a
    validation whose lines all take a fast path never imports Lark: ~35 ms, issue 14.11);
    imported when the file does not say it plainly."""
    spec = importlib.util.find_spec("lark")
    origin = getattr(spec, "origin", None)
    if origin:
        try:
            with open(origin, encoding="utf-8") as file:
                found = _VERSION.search(file.read(200_000))
        except (OSError, UnicodeDecodeError):
            found = None
        if found is not None:
            return found.group(1)
    import lark

    return str(lark.__version__)


def table_cache(grammar: str, stem: str) -> str | bool:
    """Where Lark may keep ``grammar``'s parse tables, or False when that is not possible."""
    folder = cache_folder()
    if folder is None:
        return False
    key = hashlib.sha256(f"{lark_version()}\0{grammar}".encode()).hexdigest()[:20]
    return os.path.join(folder, f"{stem}-{key}.lark-cache")
