"""Seeded whole games of the real interpreter, for the tests that check an exact figure of the
validator (a path of fights, a fight's odds with its ways out) against play within 3 standard
errors: one game per seed, the reader's choices answered by a fixed policy."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

from dedale import events
from dedale.game import Game

Answer = Callable[[events.Prompt, Game], object]
"""An answer to a prompt, given the prompt and the game (its state)."""


def ff_values(hero) -> tuple[int, int, int]:
    """The (SKILL, STAMINA, LUCK) of a validator hero profile, as ``Game.new`` takes them."""
    stats = dict(hero.stats)
    return stats["SKILL"], stats["STAMINA"], stats["LUCK"]


def ruleset_values(book, character) -> tuple[int, ...]:
    """A character's stats in the ruleset's order (d20, reliques), as ``Game.new`` takes them."""
    return tuple(character.stats[stat.id] for stat in book.ruleset.stats)


def play(
    book, seed: int, hero: tuple[int, ...], *, lang: str = "en", steps: int = 2000,
    answers: Mapping[type, Answer] | None = None, watch: Callable[[Game], None] | None = None,
) -> Game:  # fmt: skip
    """One game from ``seed`` with the ``hero``'s stats, at most ``steps`` events (a game not
    over by then is no victory). A prompt of a type in ``answers`` gets that answer; else
    the first enabled option of a choice, "no" to a yes/no question; any other prompt fails
    the test. ``watch`` sees the game after each event."""
    game = Game.new(book, seed, hero=hero, name="Ari", lang=lang, free_stats=True)
    answers = answers or {}
    for _ in range(steps):
        item = game.next()
        if item is None:
            break
        if watch is not None:
            watch(game)
        if not isinstance(item, events.Prompt):
            continue
        answer = next((a for kind, a in answers.items() if isinstance(item, kind)), None)
        if answer is not None:
            game.answer(answer(item, game))
        elif isinstance(item, events.ChoosePrompt):
            game.answer(next(o.index for o in item.options if o.enabled))
        elif isinstance(item, events.YesNoPrompt):
            game.answer(False)
        else:
            raise AssertionError(item)
    return game


def victories(book, hero: tuple[int, ...], runs: int, **options) -> int:
    """The games won among ``runs`` seeded games (seeds 0 to ``runs - 1``; the options of
    :func:`play`)."""
    return sum(play(book, seed, hero, **options).state.outcome == "victory" for seed in range(runs))


def victory_rate(book, hero: tuple[int, ...], runs: int, **options) -> float:
    """The share of ``runs`` seeded games won (:func:`victories`)."""
    return victories(book, hero, runs, **options) / runs


def assert_within_3_se(played: float, exact: float, runs: int) -> None:
    """The share won in play lies within 3 standard errors of the exact chance."""
    se = math.sqrt(exact * (1 - exact) / runs)
    assert abs(played - exact) <= 3 * se, (played, exact)
