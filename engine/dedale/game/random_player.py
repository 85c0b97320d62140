"""The random tester: plays a game answering every prompt at random.

Its choices come from its own seeded RandomSource (not the game's dice), so a run is fully
determined by ``(game seed, player seed)``. Benchmarks and the validator use it; with
``quiet=True`` the interpreter builds no events and only the prompts cost anything.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dedale import events
from dedale.errors import GameError
from dedale.game.interpreter import Game
from dedale.i18n import tr
from dedale.rules import RandomSource


@dataclass(slots=True)
class Playthrough:
    """What one random game did."""

    outcome: str | None  # "victory", "death", None (stopped: step limit or error)
    choices: int = 0  # ChoosePrompts answered
    decisions: list[Any] = field(default_factory=list)
    paragraphs: list[int] = field(default_factory=list)  # history, in order
    error: GameError | None = None
    stopped: bool = False  # the step limit was reached


class RandomPlayer:
    """Answers prompts at random; eats when hurt and allowed (``eat_chance``)."""

    _enabled: dict[int, tuple[events.ChoosePrompt, list[int]]] = {}
    """The enabled options of prompts seen (the interpreter reuses prompts that cannot
    change), checked by identity; shared by all players, emptied when it grows large."""

    def __init__(self, seed: int, eat_chance: float = 0.5) -> None:
        self.rng = RandomSource(seed)
        self.eat_chance = eat_chance
        self.hidden: tuple[int, ...] = ()  # the book's hidden paragraphs (set by play)

    def decide(self, prompt: events.Prompt) -> Any:
        """A random valid answer to ``prompt``."""
        roll = self.rng.roll
        kind = type(prompt)
        if kind is events.ChoosePrompt:
            known = self._enabled.get(id(prompt))
            if known is not None and known[0] is prompt:  # the same (memoised) prompt
                enabled = known[1]
            else:
                enabled = [o.index for o in prompt.options if o.enabled]  # type: ignore[attr-defined]
                if len(self._enabled) > 50_000:
                    self._enabled.clear()
                self._enabled[id(prompt)] = (prompt, enabled)  # type: ignore[assignment]
            return enabled[roll(len(enabled)) - 1]
        if kind is events.YesNoPrompt:
            return roll(2) == 1
        if kind is events.TargetPrompt:
            return roll(len(prompt.enemies)) - 1  # type: ignore[attr-defined]
        if kind is events.DropItemPrompt:
            items = prompt.items  # type: ignore[attr-defined]
            return items[roll(len(items)) - 1]
        if kind is events.ClassPrompt:
            classes = prompt.classes  # type: ignore[attr-defined]
            return classes[roll(len(classes)) - 1]
        if kind is events.NamePrompt:
            return prompt.default or "Hero"  # type: ignore[attr-defined]
        if kind is events.StatsPrompt:
            if roll(2) == 1:
                return None  # roll the dice
            entries = prompt.stats  # type: ignore[attr-defined]
            return [e.low + roll(e.high - e.low + 1) - 1 for e in entries]
        if kind is events.NumberPrompt:
            kind = prompt.kind  # type: ignore[attr-defined]
            if kind in ("hidden_number", "hidden_choice"):
                answers = prompt.answers or self.hidden  # type: ignore[attr-defined]
                if answers:  # "I don't know" (or step back), a number worked out
                    wrong = (max(answers) + 1,) if kind == "hidden_choice" else ()
                    known = (0, *answers, *wrong)  # and a wrong one at a choice
                    return known[roll(len(known)) - 1]
            return roll(100)
        raise GameError(tr("the random player cannot answer {kind}", kind=kind.__name__))

    def wants_to_eat(self, game: Game) -> bool:
        meals = game.book.ruleset.meals
        hero = game.state.hero
        if meals is None or hero.stats[meals.stat] >= hero.initial[meals.stat]:
            return False
        return self.rng.roll(1000) <= self.eat_chance * 1000

    def play(self, game: Game, max_steps: int = 10_000) -> Playthrough:
        """Play ``game`` to its end (or ``max_steps`` prompts); errors are reported, not
        raised."""
        result = Playthrough(outcome=None)
        self.hidden = hidden_numbers(game.book)
        steps = choices = 0
        pull, answer, decide, can_eat = game.next, game.answer, self.decide, game.can_eat
        choose, prompt_type = events.ChoosePrompt, events.Prompt
        try:
            while True:
                item = pull()
                if item is None:
                    break
                if not isinstance(item, prompt_type):
                    continue
                steps += 1
                if steps > max_steps:
                    result.stopped = True
                    break
                if type(item) is choose:
                    if can_eat() and self.wants_to_eat(game):
                        game.eat()
                        continue
                    choices += 1
                answer(decide(item))
        except GameError as error:
            result.error = error
        result.choices = choices
        result.outcome = game.outcome
        result.decisions = list(game.decisions)
        result.paragraphs = [entry.paragraph for entry in game.state.history]
        return result


def hidden_numbers(book) -> tuple[int, ...]:
    """The book's declared hidden paragraphs (memoised with the book): the numbers a
    random player may "work out" at a hidden-number prompt."""
    from dedale.game.cache import cache_for
    from dedale.game.hidden import hidden_paragraphs

    cache = cache_for(book)
    if cache.hidden is None:
        cache.hidden = hidden_paragraphs(book)
    return tuple(sorted(cache.hidden))


def play_random(
    book, seed: int, player_seed: int | None = None, *, quiet: bool = True, **creation: Any
) -> tuple[Game, Playthrough]:
    """A new game of ``book`` with ``seed``, played at random; returns the game and its run."""
    game = Game.new(book, seed, quiet=quiet, name=creation.pop("name", "Hero"), **creation)
    player = RandomPlayer(seed if player_seed is None else player_seed)
    return game, player.play(game)
