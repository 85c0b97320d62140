"""Save slots on disk: numbered slots plus the autosave, one folder per book.

The save format belongs to ``dedale.saves`` (atomic writes, versioning, checks); this module
only names the files and calls it.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dedale.errors import SaveError

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
    """The interpreter's save functions (``dedale.game.saving``), or a thin adapter over the
    save file format of ``dedale.saves`` (seed + decision log, replayed on load)."""
    try:
        from dedale.game import saving  # type: ignore[attr-defined]
    except ImportError:
        return _write_with_save_format, _read_with_save_format
    save = getattr(saving, "save_game", None) or saving.write_game
    load = getattr(saving, "load_game", None) or saving.read_game
    return save, load


def _write_with_save_format(game: Any, path: Path) -> None:
    from dedale.saves import SaveData, write_save

    book = game.book
    data = SaveData(
        title=book.title,
        fingerprint=book.fingerprint,
        seed=game.seed,
        creation=dict(game.creation),
        decisions=list(game.decisions),
        state=game.snapshot(),
        origin=game.origin,
    )
    write_save(path, data)


def _read_with_save_format(path: Path, book: Any) -> Any:
    from dedale.game import Game
    from dedale.saves import check_book, read_save

    data = read_save(path)
    check_book(data, book.title, path)
    game = Game(book, data.seed, data.creation, origin=data.origin)
    game.replay(data.decisions)
    return game


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
            raise SaveError(f"cannot create {path.parent}: {error.strerror}") from error
        save_fn(game, path)
        return path

    def load(self, slot: str | int, book: Any) -> Any:
        """The game saved in a slot; SaveError with a clear message if it cannot be used."""
        load_fn = self._load_fn or _library_functions()[1]
        path = self.path(slot)
        if not path.is_file():
            raise SaveError(f"no save in {path}")
        return load_fn(path, book)
