"""The Lark grammars shipped as ``dedale.grammar``: their text and their table cache.

Building LALR tables takes 0.05-0.3 s a grammar; Lark can keep them in a file. They are kept
in the user's cache folder (dedale.user_cache), keyed by the grammar's text and Lark's
version. ``DEDALE_NO_CACHE=1`` disables it.
"""

from __future__ import annotations

import hashlib
import os
from importlib import resources

import lark

from dedale.user_cache import cache_folder


def grammar_text(filename: str) -> str:
    """The text of ``grammar/<filename>`` (read with importlib.resources)."""
    return resources.files("dedale.grammar").joinpath(filename).read_text("utf-8")


def table_cache(grammar: str, stem: str) -> str | bool:
    """Where Lark may keep ``grammar``'s parse tables, or False when that is not possible."""
    folder = cache_folder()
    if folder is None:
        return False
    key = hashlib.sha256(f"{lark.__version__}\0{grammar}".encode()).hexdigest()[:20]
    return os.path.join(folder, f"{stem}-{key}.lark-cache")
