"""Author tools (``--playtest``): each asks the game to do it; the player decides nothing.

Every function returns False when the game object offers no such control, so the screen can
say so instead of failing.
"""

from __future__ import annotations

from typing import Any


def _call(game: Any, names: tuple[str, ...], *args: object) -> bool:
    for name in names:
        method = getattr(game, name, None)
        if callable(method):
            method(*args)
            return True
    return False


def undo(game: Any) -> bool:
    """Back to the previous paragraph of the history."""
    return _call(game, ("undo",))


def jump(game: Any, paragraph: int) -> bool:
    """Continue reading at another paragraph (state kept)."""
    return _call(game, ("jump_to", "jump", "goto"), paragraph)


def set_stat(game: Any, stat: str, value: int) -> bool:
    """Set a stat's current value (and raise its initial value if needed)."""
    if _call(game, ("set_stat", "edit_stat"), stat, value):
        return True
    hero = getattr(getattr(game, "state", None), "hero", None)
    if hero is not None and callable(getattr(hero, "set", None)):
        hero.set(stat, value, exceptional=True)  # the Character's own rule for raises
        return True
    return False


def set_god_mode(game: Any, enabled: bool) -> bool:
    """No stat of the hero goes down while enabled."""
    if _call(game, ("set_god_mode",), enabled):
        return True
    if hasattr(game, "god_mode"):
        game.god_mode = enabled
        return True
    return False


def force_dice(game: Any, faces: list[int]) -> bool:
    """The next dice thrown show these faces (``RandomSource.force``)."""
    if _call(game, ("force_dice",), faces):
        return True
    for holder in ("random", "rng", "dice"):
        source = getattr(game, holder, None)
        if source is not None and callable(getattr(source, "force", None)):
            source.force(faces)
            return True
    return False
