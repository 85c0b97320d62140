"""The Textual player: a front end that renders the interpreter's events and answers prompts.

It holds no game logic: :class:`dedale.player.session.Session` pulls events from a game
(``game.next()``), the screens show them and send the reader's answers back
(``game.answer(value)``). Only this package imports Textual.
"""

from __future__ import annotations

__all__ = ["run_player"]


def run_player(args: object) -> int:
    """Run the Textual player for ``dedale play`` arguments (imports Textual lazily)."""
    from dedale.player.app import run_player as _run

    return _run(args)
