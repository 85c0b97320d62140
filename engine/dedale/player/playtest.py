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


def jump(game: Any, paragraph: int) -> Any:
    """The game to continue with at another paragraph (state kept), or None if impossible.

    A game offering ``jump_to`` does it itself; otherwise a new game starts from a snapshot
    of this one placed at ``paragraph`` (the way a save is resumed after the book changed:
    the paragraph is shown and its choices offered, its effects are not applied again).
    """
    if _call(game, ("jump_to", "jump", "goto"), paragraph):
        return game
    book = getattr(game, "book", None)
    snapshot = getattr(game, "snapshot", None)
    if book is None or not callable(snapshot) or paragraph not in book.paragraphs:
        return None
    state = snapshot()
    state["paragraph"] = paragraph
    state["outcome"] = None
    origin = {"state": state, "seed": game.seed + len(game.decisions) + 1}
    return type(game)(game.book, game.seed, game.creation, origin=origin)


def set_stat(game: Any, stat: str, value: int) -> bool:
    """Set a stat's current value (and raise its initial value if needed)."""
    if _call(game, ("set_stat", "edit_stat"), stat, value):
        return True
    hero = getattr(getattr(game, "state", None), "hero", None)
    if hero is not None and callable(getattr(hero, "set", None)):
        hero.set(stat, value, exceptional=True)  # the Character's own rule for raises
        return True
    return False


def keep_alive(game: Any, event: object) -> None:
    """God mode: undo a loss the hero just took (called for each event before the game goes
    on, so its checks see the value restored)."""
    hero = getattr(getattr(game, "state", None), "hero", None)
    name, old, new = (getattr(event, key, None) for key in ("name", "old", "new"))
    if getattr(event, "who", None) != "hero" or hero is None or name not in hero.stats:
        return
    if isinstance(old, int) and isinstance(new, int) and new < old:
        hero.set(name, old)


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
