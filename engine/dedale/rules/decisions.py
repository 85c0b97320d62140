"""Driving rules generators: ``drive(gen, decider)`` and simple deciders.

Every mechanism that rolls dice or needs a player decision is a generator yielding
:class:`dedale.events.Event` and :class:`dedale.events.Prompt` objects; it receives each
prompt's answer through ``send()`` and returns its result. ``drive`` runs one to the end,
answering prompts with a :class:`Decider` and handing events to an optional callback.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Generator, Iterable
from typing import Any, Protocol, TypeVar

from dedale.errors import GameError
from dedale.events import Event, Prompt, TargetPrompt

R = TypeVar("R")

RulesGen = Generator[Event | Prompt, Any, R]


class Decider(Protocol):
    """Answers prompts: ``answer(prompt) -> object`` (bool for YesNoPrompt, int index...)."""

    def answer(self, prompt: Prompt) -> object: ...


class AlwaysNo:
    """Answers every yes/no prompt with no, and targets the first enemy."""

    def answer(self, prompt: Prompt) -> object:
        if isinstance(prompt, TargetPrompt):
            return 0
        return False


class AlwaysYes:
    """Answers every yes/no prompt with yes, and targets the first enemy."""

    def answer(self, prompt: Prompt) -> object:
        if isinstance(prompt, TargetPrompt):
            return 0
        return True


class ScriptedDecider:
    """Answers prompts from a list, in order (tests); raises when it runs out."""

    def __init__(self, answers: Iterable[object]) -> None:
        self.answers: deque[object] = deque(answers)
        self.asked: list[Prompt] = []

    def answer(self, prompt: Prompt) -> object:
        self.asked.append(prompt)
        if not self.answers:
            raise GameError(f"no scripted answer left for {prompt!r}")
        return self.answers.popleft()


class FunctionDecider:
    """Wraps a function ``prompt -> answer``."""

    def __init__(self, function: Callable[[Prompt], object]) -> None:
        self.function = function

    def answer(self, prompt: Prompt) -> object:
        return self.function(prompt)


def drive(gen: RulesGen[R], decider: Decider, on_event: Callable[[Event], None] | None = None) -> R:
    """Run a rules generator to its end; returns its result."""
    send = gen.send
    answer = decider.answer
    try:
        item = next(gen)
        while True:
            if isinstance(item, Prompt):
                item = send(answer(item))
            else:
                if on_event is not None:
                    on_event(item)
                item = send(None)
    except StopIteration as stop:
        return stop.value


def collect(gen: RulesGen[R], decider: Decider) -> tuple[R, list[Event | Prompt]]:
    """Run a generator and return ``(result, everything it yielded)`` (tests)."""
    seen: list[Event | Prompt] = []

    class _Recorder:
        def answer(self, prompt: Prompt) -> object:
            seen.append(prompt)
            return decider.answer(prompt)

    result = drive(gen, _Recorder(), seen.append)
    return result, seen
