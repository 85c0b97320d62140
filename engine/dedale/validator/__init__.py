"""``dedale validate``: the author's checker (structure, rules, fight odds, random games).

Never imports Textual. ``validate_path(path)`` loads and checks a book; ``cli.run`` is the
command line; the ``report`` package renders text, json, github and sarif.
"""

from __future__ import annotations

from dedale.validator.checker import BookReport, validate_loaded, validate_path
from dedale.validator.findings import CHECKS, Check, Finding

__all__ = ["BookReport", "CHECKS", "Check", "Finding", "validate_loaded", "validate_path"]
