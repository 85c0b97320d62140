"""The one seedable random source of a game, with a log of every face rolled.

Nothing in Dédale calls the global :mod:`random` module: each game owns a
:class:`RandomSource` built from its seed. Every face it returns is appended to ``log``,
so a game can be replayed exactly (``ScriptedDice(source.log)`` returns the same faces).
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable

from dedale.errors import GameError


class DiceExhaustedError(GameError):
    """A :class:`ScriptedDice` was asked for more faces than it was given."""


class RandomSource:
    """Dice for one game: ``roll(sides)``, ``roll_dice(n, sides)``, ``force(faces)``."""

    __slots__ = ("seed", "log", "_random", "_forced")

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.log: list[int] = []
        self._random = random.Random(seed).random
        self._forced: deque[int] = deque()

    def force(self, faces: Iterable[int]) -> None:
        """Queue faces to be returned by the next rolls (playtests, tests)."""
        self._forced.extend(int(face) for face in faces)

    def _next_face(self, sides: int) -> int:
        if self._forced:
            face = self._forced.popleft()
            if not 1 <= face <= sides:
                raise GameError(f"forced face {face} cannot come up on a d{sides}")
            return face
        return int(self._random() * sides) + 1

    def roll(self, sides: int) -> int:
        """One die with ``sides`` faces (1..sides), logged."""
        if self._forced:
            face = self._next_face(sides)
        else:
            face = int(self._random() * sides) + 1
        self.log.append(face)
        return face

    def roll_dice(self, n: int, sides: int) -> tuple[int, ...]:
        """``n`` dice with ``sides`` faces each, in the order rolled, logged."""
        if self._forced:
            faces = tuple(self._next_face(sides) for _ in range(n))
        else:
            rand = self._random
            faces = tuple(int(rand() * sides) + 1 for _ in range(n))
        self.log.extend(faces)
        return faces

    def roll2(self, sides: int) -> tuple[int, int]:
        """Two dice (the hot path of FF fights), logged; one uniform draw gives both faces."""
        if self._forced:
            first = self._next_face(sides)
            second = self._next_face(sides)
        else:
            both = int(self._random() * sides * sides)
            first = both // sides + 1
            second = both % sides + 1
        log = self.log
        log.append(first)
        log.append(second)
        return first, second


class ScriptedDice(RandomSource):
    """Returns exactly the scripted faces, in order; raises when they run out."""

    __slots__ = ()

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self._forced.extend(int(face) for face in faces)

    def _next_face(self, sides: int) -> int:
        if not self._forced:
            raise DiceExhaustedError(
                f"the scripted dice ran out after {len(self.log)} faces",
                hint="give the ScriptedDice more faces",
            )
        return super()._next_face(sides)

    def roll(self, sides: int) -> int:
        face = self._next_face(sides)
        self.log.append(face)
        return face

    def roll_dice(self, n: int, sides: int) -> tuple[int, ...]:
        faces = tuple(self._next_face(sides) for _ in range(n))
        self.log.extend(faces)
        return faces

    def roll2(self, sides: int) -> tuple[int, int]:
        first = self._next_face(sides)
        second = self._next_face(sides)
        self.log.append(first)
        self.log.append(second)
        return first, second

    @property
    def remaining(self) -> int:
        """How many scripted faces are left."""
        return len(self._forced)
