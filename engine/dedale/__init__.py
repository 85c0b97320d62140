"""Dédale: a runtime, player and checker for numbered-paragraph gamebooks."""

from dedale.errors import (
    BookError,
    BookLoadError,
    DedaleError,
    GameError,
    RulesetError,
    SaveError,
)
from dedale.span import Span

__version__ = "0.1.0"

__all__ = [
    "BookError",
    "BookLoadError",
    "DedaleError",
    "GameError",
    "RulesetError",
    "SaveError",
    "Span",
    "__version__",
]
