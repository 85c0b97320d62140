"""Saving, loading and replaying games (the file format itself is in dedale.saves).

- :func:`save_game` writes a game (seed, creation options, decision log, state snapshot).
- :func:`load_game` rebuilds a game from a save by replaying its decision log; if the book
  was edited and the log no longer fits (or ends in another state), it reports the first
  divergence and falls back to the snapshot, provided its paragraph still exists.
- :func:`replay_save` re-runs a save's decision log and compares the state it reaches with
  the snapshot, exactly (``dedale replay``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dedale.errors import DedaleError, GameError, SaveError
from dedale.game.interpreter import Divergence, Game
from dedale.game.state import GameState, first_difference
from dedale.i18n import tr
from dedale.saves import SaveData, check_book, read_save, write_save
from dedale.span import Span


def to_save(game: Game) -> SaveData:
    """The save data of a game as it stands (pulled up to its next prompt)."""
    state = game.snapshot()
    book = game.book
    extra: dict[str, Any] = {}
    where = book_location(book)
    if where is not None:
        extra["book_path"] = str(where)
    return SaveData(
        title=book.title,
        fingerprint=book.fingerprint,
        seed=game.seed,
        creation=dict(game.creation),
        decisions=list(game.decisions),
        state=state,
        origin=game.origin,
        extra=extra,
    )


def book_location(book) -> Path | None:
    """The path ``load_book`` can load this book from (its folder or its single file)."""
    root = getattr(book, "root", None)
    if root is None:
        return None
    root = Path(root).resolve()
    files = list(getattr(book, "files", []) or [])
    if not (root / "book.yaml").exists() and len(files) == 1:
        return Path(files[0]).resolve()
    return root


def save_game(game: Game, path: str | os.PathLike[str]) -> Path:
    """Write ``game`` to ``path`` atomically."""
    return write_save(path, to_save(game))


@dataclass(slots=True)
class LoadReport:
    """How a save was loaded: ``divergence`` says where the log stopped fitting the book,
    ``fallback`` whether the game was resumed from the snapshot instead."""

    divergence: str | None = None
    fallback: bool = False


def load_game(book, path: str | os.PathLike[str]) -> tuple[Game, LoadReport]:
    """Load a save for ``book``; SaveError (nothing changed) if it cannot be used.

    Never raises anything but a DedaleError: a save whose content passes the checks of
    dedale.saves but still does not fit the book is refused with a SaveError."""
    data = read_save(path)
    check_book(data, book.title, path)
    _check_state(data, path)
    try:
        return _rebuild(book, data, path)
    except DedaleError:
        raise
    except _UNFIT as error:
        raise SaveError(
            tr(
                "the save {path} cannot be resumed: its game does not fit this book ({kind})",
                path=str(path),
                kind=type(error).__name__,
            ),
            Span(str(path), 1, 1),
            hint=tr("the save may have been edited by hand; start a new game or use another save"),
        ) from None


_UNFIT = (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError)
"""What rebuilding a game from hand-edited (schema-valid) data can raise."""


def _rebuild(book, data: SaveData, path) -> tuple[Game, LoadReport]:
    report = LoadReport()
    game = Game(book, data.seed, data.creation, origin=data.origin)
    try:
        game.replay(data.decisions)
        difference = first_difference(data.state, game.snapshot())
        if difference is None:
            return game, report
        report.divergence = tr(
            "the game reaches another state: {difference}", difference=difference
        )
    except Divergence as error:
        report.divergence = error.message
    except GameError as error:
        report.divergence = tr("the book now stops the game: {reason}", reason=error.message)
    paragraph = data.state.get("paragraph")
    if paragraph not in book.paragraphs:
        raise SaveError(
            tr(
                "{path} cannot be resumed: the book changed ({divergence}) and "
                "paragraph {paragraph} no longer exists",
                path=path,
                divergence=report.divergence,
                paragraph=paragraph,
            )
        )
    origin = {"state": data.state, "seed": data.seed + len(data.decisions) + 1}
    report.fallback = True
    resumed = Game(book, data.seed, data.creation, origin=origin)
    resumed.replay([])  # up to the first prompt: a state that cannot run fails here, typed
    return resumed, report


def _check_state(data: SaveData, path) -> None:
    creation = data.creation
    hero = creation.get("hero")
    if (hero is not None and not (isinstance(hero, list) and all(_is_int(v) for v in hero))) or any(
        creation.get(key) is not None and not isinstance(creation.get(key), str)
        for key in ("class", "name", "lang")
    ):
        raise SaveError(
            tr("the save {path} is corrupted: its hero options are malformed", path=path)
        )
    try:
        GameState.from_dict(data.state)
        if data.origin is not None:
            GameState.from_dict(data.origin["state"])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise SaveError(
            tr("the save {path} is corrupted: its game state is incomplete", path=path)
        ) from None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(slots=True)
class ReplayResult:
    """The outcome of replaying a save: ``difference`` is None when it matched exactly."""

    decisions: int
    paragraph: int | None
    outcome: str | None
    difference: str | None


def replay_save(book, data: SaveData) -> ReplayResult:
    """Re-run the decision log from the seed and compare with the saved state."""
    try:
        return _replay(book, data)
    except DedaleError:
        raise
    except _UNFIT as error:
        raise SaveError(
            tr(
                "the save cannot be replayed: its game does not fit this book ({kind})",
                kind=type(error).__name__,
            ),
            hint=tr("the save may have been edited by hand"),
        ) from None


def _replay(book, data: SaveData) -> ReplayResult:
    game = Game(book, data.seed, data.creation, origin=data.origin, quiet=True)
    try:
        game.replay(data.decisions)
    except Divergence as error:
        return ReplayResult(error.index, game.state.paragraph, game.outcome, error.message)
    difference = first_difference(data.state, game.snapshot(), "state")
    return ReplayResult(len(data.decisions), game.state.paragraph, game.outcome, difference)


def load_for_replay(path: str | os.PathLike[str]) -> SaveData:
    """Read a save for ``dedale replay`` (SaveError if unusable)."""
    data = read_save(path)
    _check_state(data, path)
    return data
