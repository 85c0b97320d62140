"""The values a plan's expectations read from a game: stats, counters, items, codewords,
the book's own flags and counters (book.yaml ``state:``)."""

from __future__ import annotations

from dedale.game import Game
from dedale.game.book_state import count_value
from dedale.rules import fold


def value_of(game: Game, name: str) -> int | None:
    """The number ``name`` stands for now (a stat, a counter, an item's count, the book's
    counter), or None when it names none of these."""
    hero = game.state.hero
    found = game.book.ruleset.resolve(name)
    if hero is not None and found is not None:
        kind, ident = found
        if kind == "stat":
            return hero.stats.get(ident)
        if kind == "counter":
            return hero.counters.get(ident, 0)
    state = getattr(game.book.meta, "state", None)
    if state is not None:
        counted = count_value(state, game.state, name)
        if counted is not None:
            return counted
    if hero is not None:
        wanted = fold(name)
        for item, count in hero.items.items():
            if fold(item) == wanted:
                return count
        if found is not None and found[0] == "item" or _known_item(game, wanted):
            return 0
    return None


def held(game: Game, name: str) -> bool:
    """Whether an item, a codeword or one of the book's flags named ``name`` is held (a
    counter: whether it is above 0)."""
    wanted = fold(name)
    hero = game.state.hero
    found = game.book.ruleset.resolve(name)
    if hero is not None and found is not None and found[0] == "counter":
        return hero.counters.get(found[1], 0) > 0
    state = getattr(game.book.meta, "state", None)
    if state is not None and state.counter(name) is not None:
        return (count_value(state, game.state, name) or 0) > 0
    if hero is not None and any(fold(item) == wanted and n > 0 for item, n in hero.items.items()):
        return True
    if game.state.has_codeword(name):
        return True
    flag = state.flag(name) if state is not None else None
    flag_name = flag.name if flag is not None else name
    return flag_name in game.state.flags or any(fold(f) == wanted for f in game.state.flags)


def _known_item(game: Game, wanted: str) -> bool:
    items = getattr(game.book, "items", None) or {}
    return any(fold(str(name)) == wanted for name in items)
