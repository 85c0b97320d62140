"""The answers the solver considers at a prompt: the choices (with their next node when
it is known without a replay), a meal, yes/no questions, numbers, items, targets."""

from __future__ import annotations

from typing import Any

from dedale import ast, events
from dedale.events import Prompt
from dedale.game import Game
from dedale.game.choices import offer
from dedale.i18n import tr
from dedale.solve.model import Next, SolveLimit
from dedale.solve.nodes import Entry


class Prompts:
    """The explorer's answers to prompts (mixed into :class:`dedale.solve.explore.Explorer`)."""

    def _options(self, game: Game, prompt: Prompt) -> tuple:
        """The answers considered at a prompt: (token, walkthrough label, the Next it
        leads to when known without a replay, else None)."""
        if type(prompt) is not events.ChoosePrompt:
            return tuple((token, label, None) for token, label in _answers(game, prompt))
        plain = _plain_choices(game) if self.shortcuts else frozenset()
        eat = game.can_eat() and _hungry(game) and not self._meal_waits(game, prompt, plain)
        if eat and self.eager.forced(game, self._paragraph):
            return ((("a", "eat"), {"kind": "meal"}, None),)
        found: list[tuple[Any, dict[str, Any], Any]] = []
        keys: dict[int, str] = {}
        for o in prompt.options:  # type: ignore[attr-defined]
            if not o.enabled:
                continue
            label = {"kind": "choice", "target": o.target, "text": o.text}
            direct = None
            if o.index in plain and o.target in self.book.paragraphs:
                key = keys.get(o.target)
                if key is None:
                    key = keys[o.target] = self.canonical(game.state, o.target)
                direct = Next(self.intern(Entry(key, o.target)))
            found.append((("a", o.index), label, direct))
        if eat:
            found.append((("a", "eat"), {"kind": "meal"}, None))
        return tuple(found)

    def _meal_waits(self, game: Game, prompt, plain: frozenset[int]) -> bool:
        """Whether eating now can wait for the next choice (:mod:`dedale.solve.meals`)."""
        timing = self.meal_timing
        if not timing.enabled:
            return False
        if not self.shortcuts:
            plain = _plain_choices(game)
        options = [o for o in prompt.options if o.enabled]  # type: ignore[attr-defined]
        if not all(o.index in plain for o in options):
            return False
        return timing.can_wait(game, (o.target for o in options))


def _plain_choices(game: Game) -> frozenset[int]:
    """The options of the paragraph's own choice prompt that only turn to their target
    (no cost, no effect, no typed number): taking one changes nothing before the next
    paragraph, so the solver needs no replay for it."""
    runner = game._runner
    if not runner.at_choice or game.state.stop:
        return frozenset()
    plain = set()
    for offered in offer(runner._choices, runner, runner._revisit):
        choice = offered.choice
        if type(choice) is ast.Choice and not choice.costs and not choice.effects:
            plain.add(offered.option.index)
    return frozenset(plain)


def _hungry(game: Game) -> bool:
    """Whether a meal could do anything (the solver never eats at full health: the same
    stats with one meal fewer)."""
    meals = game.book.ruleset.meals
    hero = game.state.hero
    return hero.stats.get(meals.stat, 0) < hero.initial.get(meals.stat, 0)


def _answers(game: Game, prompt: Prompt) -> tuple[tuple[Any, dict[str, Any]], ...]:
    """The answers the solver considers at a prompt other than a choice, with labels."""
    kind = type(prompt)
    if kind is events.YesNoPrompt:
        name = prompt.kind  # type: ignore[attr-defined]
        if name == "use_luck":
            return tuple((("a", b), {"kind": "luck", "answer": b}) for b in (True, False))
        return tuple(
            (("a", b), {"kind": "yes_no", "prompt": name, "answer": b}) for b in (True, False)
        )
    if kind is events.NumberPrompt and prompt.answers:  # type: ignore[attr-defined]
        return tuple(
            (("a", n), {"kind": "answer", "value": n})
            for n in prompt.answers  # type: ignore[attr-defined]
        )
    if kind is events.DropItemPrompt:
        return tuple(
            (("a", item), {"kind": "drop", "item": item})
            for item in prompt.items  # type: ignore[attr-defined]
        )
    if kind is events.TargetPrompt:
        return tuple(
            (("a", i), {"kind": "target", "enemy": name})
            for i, name in enumerate(prompt.enemies)  # type: ignore[attr-defined]
        )
    raise SolveLimit(
        tr("the solver cannot answer this question: {prompt}", prompt=type(prompt).__name__)
    )
