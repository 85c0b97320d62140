"""Save slots on disk: numbered slots plus the autosave, one folder per book.

The save format belongs to ``dedale.saves`` (atomic writes, versioning, checks); this module
only names the files and calls it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dedale.errors import SaveError
from dedale.i18n import tr

SLOT_COUNT = 5
AUTOSAVE = "autosave"

SaveFn = Callable[[Any, Path], None]
LoadFn = Callable[[Path, Any], Any]


def default_save_dir() -> Path:
    """``$DEDALE_SAVE_DIR``, else ``$XDG_DATA_HOME/dedale/saves``, else ``~/.local/share``."""
    if os.environ.get("DEDALE_SAVE_DIR"):
        return Path(os.environ["DEDALE_SAVE_DIR"])
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "dedale" / "saves"


def _library_functions() -> tuple[SaveFn, LoadFn]:
    """The interpreter's save functions: ``dedale.game.saving``."""
    from dedale.game import saving

    def load(path: Path, book: Any) -> Any:
        game, report = saving.load_game(book, path)
        return LoadedGame(game, report.divergence, report.fallback)

    return saving.save_game, load


@dataclass(frozen=True)
class LoadedGame:
    """A loaded game, and how: where its log stopped fitting the book, if it did."""

    game: Any
    divergence: str | None = None
    fallback: bool = False


class SaveSlots:
    """Where a book's saves live; ``save(slot, game)`` and ``load(slot, book)``."""

    def __init__(
        self,
        folder: Path,
        book_identity: str,
        save_fn: SaveFn | None = None,
        load_fn: LoadFn | None = None,
    ) -> None:
        self.folder = folder / (book_identity or "book")
        self._save_fn = save_fn
        self._load_fn = load_fn

    def path(self, slot: str | int) -> Path:
        return self.folder / f"{slot}.json"

    def exists(self, slot: str | int) -> bool:
        return self.path(slot).is_file()

    def slots(self) -> list[str]:
        return [str(n) for n in range(1, SLOT_COUNT + 1)]

    def save(self, slot: str | int, game: Any) -> Path:
        """Write the game to a slot (atomically, by dedale.saves); SaveError on failure."""
        save_fn = self._save_fn or _library_functions()[0]
        path = self.path(slot)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SaveError(
                tr(
                    "cannot create {parent}: {strerror}",
                    parent=path.parent,
                    strerror=error.strerror,
                )
            ) from error
        save_fn(game, path)
        return path

    def load(self, slot: str | int, book: Any) -> LoadedGame:
        """The game saved in a slot; SaveError with a clear message if it cannot be used."""
        return load_path(self.path(slot), book, self._load_fn)


def load_path(path: Path, book: Any, load_fn: LoadFn | None = None) -> LoadedGame:
    """Load a save file for ``book`` (``dedale play --load``, slots)."""
    load_fn = load_fn or _library_functions()[1]
    if not path.is_file():
        raise SaveError(tr("no save in {path}", path=path))
    loaded = load_fn(path, book)
    return loaded if isinstance(loaded, LoadedGame) else LoadedGame(loaded)
