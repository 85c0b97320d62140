"""``dedale validate``: the author's checker (structure, rules, fight odds, random games).

Never imports Textual. ``validate_path(path)`` loads and checks a book; ``cli.run`` is the
command line; the ``report`` package renders text, json, github and sarif. The names below
are imported on first use, so ``import dedale.validator.cli`` (done by ``dedale --help``)
stays cheap.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["BookReport", "CHECKS", "Check", "Finding", "validate_loaded", "validate_path"]

_HOMES = {
    "BookReport": "dedale.validator.checker",
    "CHECKS": "dedale.validator.findings",
    "Check": "dedale.validator.findings",
    "Finding": "dedale.validator.findings",
    "validate_loaded": "dedale.validator.checker",
    "validate_path": "dedale.validator.checker",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'dedale.validator' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
