"""Author tools (``--playtest``): each asks the Game to do it; the player decides nothing.

The Game logs every tool as a decision, so a save made during a playtest replays exactly.
Each function returns False (with nothing changed) when the game refuses, e.g. when it is
not waiting at a choice, so the screen can say so instead of failing.
"""

from __future__ import annotations

from collections.abc import Iterable

from dedale.errors import GameError
from dedale.game import Game


def undo(game: Game) -> bool:
    """Back to the previous paragraph of the history (raises GameError when none)."""
    game.undo()
    return True


def jump(game: Game, paragraph: int) -> bool:
    """Turn to ``paragraph`` now; False if there is no such paragraph or no choice now."""
    return _try(game.jump_to, paragraph)


def set_stat(game: Game, stat: str, value: int) -> bool:
    """Set a stat (its initial value raised if needed) or a counter."""
    return _try(game.set_value, stat, value)


def toggle_god_mode(game: Game) -> bool | None:
    """Switch god mode; returns the new setting, or None if the game refused."""
    return not game.god_mode if _try(game.set_god_mode, not game.god_mode) else None


def force_dice(game: Game, faces: Iterable[int]) -> bool:
    """The next dice thrown show these faces."""
    return _try(game.force_dice, list(faces))


def _try(action, *args: object) -> bool:
    try:
        action(*args)
    except GameError:
        return False
    return True
