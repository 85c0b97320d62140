"""The parsed plan: a hero, then steps, each remembering the plan line it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from dedale.span import Span

Language = Literal["en", "fr"]


@dataclass(frozen=True, slots=True)
class Dice:
    """The next dice thrown show these faces (``dice: 6 6 1``)."""

    faces: tuple[int, ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class At:
    """The game is at this paragraph now (``at 12``)."""

    paragraph: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Choose:
    """Take the choice to ``target``, or whose text is ``text``, or shown as ``number``."""

    target: int | None = None
    text: str | None = None
    number: int | None = None
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Answer:
    """Answer the question asked: yes/no (bool), a number (int), or a name (str)."""

    value: bool | int | str
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Eat:
    """Eat a meal at the choice the game waits at."""

    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Drop:
    """Drop an item: at a choice, or when the game asks which item to leave."""

    item: str
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Jump:
    """Playtest: turn to this paragraph now, from the choice the game waits at."""

    paragraph: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class SetValue:
    """Playtest: set a stat or counter to a value, at a choice."""

    name: str
    value: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class God:
    """Playtest: god mode on or off (the hero is spared instead of dying)."""

    on: bool
    span: Span | None = field(default=None, compare=False)


Operator = Literal["=", ">=", "<=", ">", "<"]


@dataclass(frozen=True, slots=True)
class Value:
    """A stat or counter compared with a number (``STAMINA 18``, ``LUCK >= 7``)."""

    name: str
    operator: Operator
    number: int
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Held:
    """An item, codeword or flag held (or, with ``held=False``, not held)."""

    name: str
    held: bool = True
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Expect:
    """Expectations on the state, checked when the game next waits for the reader."""

    checks: tuple[Value | Held, ...]
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Ending:
    """The game ends here: ``victory`` or ``death``; ``stop``: the plan stops, the game
    goes on."""

    outcome: Literal["victory", "death", "stop"]
    span: Span | None = field(default=None, compare=False)


Step = Dice | At | Choose | Answer | Eat | Drop | Jump | SetValue | God | Expect | Ending
DECISIONS = (Choose, Answer, Eat, Drop, Jump, SetValue, God)
"""The steps that answer the game (the others check, or prepare dice)."""


@dataclass(frozen=True, slots=True)
class Plan:
    """A whole plan (the writer's input and the parser's output)."""

    hero: tuple[tuple[str, int], ...] = ()
    steps: tuple[Step, ...] = ()
    language: Language = "en"
    name: str | None = None
    class_name: str | None = None
    gender: Literal["f", "m"] | None = None
    seed: int | None = None
    otherwise: bool | None = None  # the answer to yes/no questions the steps leave open
    file: str = field(default="<plan>", compare=False)
    hero_span: Span | None = field(default=None, compare=False)
