"""Dédale: a runtime, player and checker for numbered-paragraph gamebooks."""

from dedale import dataclass_cache

dataclass_cache.install()  # before any dataclass of Dédale is made: their compiled methods

from dedale.errors import (  # noqa: E402
    BookError,
    BookLoadError,
    DedaleError,
    GameError,
    RulesetError,
    SaveError,
)
from dedale.span import Span  # noqa: E402

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
