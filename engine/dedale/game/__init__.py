"""The interpreter: a book runs here, headless, as a stream of events and prompts.

The pull API (in the manner of ink)::

    from dedale.game import Game
    game = Game.new(book, seed=42, hero=(10, 20, 9), name="Ariane", lang="fr")
    while (item := game.next()) is not None:
        if isinstance(item, Prompt):        # ChoosePrompt, YesNoPrompt, TargetPrompt, ...
            game.answer(value)              # must come before the next next()
        else:                               # an Event: show it
            ...
    game.outcome                            # "victory" / "death"

- ``game.next()`` returns the next Event or Prompt, the same Prompt again until it is
  answered, and None once the game is over. ``game.answer(value)`` raises
  ``InvalidAnswer`` (changing nothing) if the value does not fit the prompt.
- ``game.can_eat()`` / ``game.eat()``: eating a meal is a reader's action at a choice
  prompt; ``eat()`` returns its events and the choice prompt is asked again.
- ``game.state`` (GameState, JSON-able via ``to_dict()``), ``game.over``, ``game.outcome``,
  ``game.decisions`` (the decision log: answers, and ``{"action": "eat"}``), ``game.rng``.
- ``game.undo(steps=1)`` / ``game.rewind_to(history_index)`` step back to an earlier
  paragraph by replaying the decision log's prefix from the seed: the same dice come again.
- ``game.replay(decisions)`` applies a decision log (raises ``Divergence`` at the first
  decision that no longer fits); ``dedale.game.saving`` writes and loads saves.
- ``Game.new(..., quiet=True)`` builds no events (prompts only): the random tester and the
  benchmarks use it; the code path is otherwise the same.
- ``Game.new(..., hero=...)`` refuses values the ruleset's creation cannot roll unless
  ``free_stats=True`` (playtest). book.yaml ``creation: fixed_stats: true`` asks a
  ``StatsPrompt`` (typed stats, or None to roll); ``default_name`` is the NamePrompt's default.
- Bounds: more than ``forced.FORCED_LIMIT`` paragraphs in a row with no decision raise
  ``ForcedLoopError`` (the cycle, located where it closes); a fight past
  ``rules.fights.MAX_ASSAULTS`` assaults raises a GameError at the fight line.
"""

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dedale.game.forced import ForcedLoopError
    from dedale.game.interpreter import EAT_ACTION, Divergence, Game, InvalidAnswer
    from dedale.game.state import GameState, HistoryEntry

_EXPORTS = {
    "EAT_ACTION": "dedale.game.interpreter",
    "Divergence": "dedale.game.interpreter",
    "ForcedLoopError": "dedale.game.forced",
    "Game": "dedale.game.interpreter",
    "GameState": "dedale.game.state",
    "HistoryEntry": "dedale.game.state",
    "InvalidAnswer": "dedale.game.interpreter",
}
__all__ = [
    "EAT_ACTION",
    "Divergence",
    "ForcedLoopError",
    "Game",
    "GameState",
    "HistoryEntry",
    "InvalidAnswer",
]


def __getattr__(name: str) -> Any:
    """The interpreter is imported on first use: a checker that only reads a submodule
    (``dedale.game.conditions``) does not pay for it (``dedale validate --runs 0``)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dedale.game' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
