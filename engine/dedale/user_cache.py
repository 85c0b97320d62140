"""The user's cache folder for what Dédale may keep between runs (Lark's parse tables, the
parsed built-in rulesets): ``$XDG_CACHE_HOME/dedale`` or ``~/.cache/dedale``.

Everything kept there is a cache: a file that is missing, stale, cut short or corrupt is
ignored and written again, and a folder that cannot be made or written means no cache.
``DEDALE_NO_CACHE=1`` disables it.
"""

from __future__ import annotations

import os


def cache_folder() -> str | None:
    """The cache folder (made if need be), or None when there is none to write in."""
    if os.environ.get("DEDALE_NO_CACHE"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "dedale")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None
    if not os.access(folder, os.W_OK):
        return None
    return folder
