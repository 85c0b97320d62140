"""The exact law of one d20 attack, read from the fight's own ``attack_roll``.

Nothing here re-derives a rule: :func:`attack_law` runs
:func:`dedale.rules.fight_d20.attack_roll` once per possible sequence of dice faces (a
depth-first walk over the faces each roll could show), so the automatic hit or miss by
action lead, the natural 20 (no reduction, damage multiplied), the damage reduction and
any dice the ruleset or the weapon names come out exactly as the fight plays them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dedale.errors import GameError
from dedale.i18n import number, tr
from dedale.rules.fight_d20 import Fighter, attack_roll
from dedale.rules.ruleset import D20Fight

ROLL_BUDGET = 50_000
"""Most dice-face sequences one attack may have (1d20 then 2d6 damage: 720)."""


class D20OddsTooLarge(GameError):
    """The exact odds of a d20 fight would need more work than their budget."""

    @classmethod
    def slow(cls, seconds: float) -> D20OddsTooLarge:
        """Past the CPU budget of one exact computation."""
        return cls(
            tr("the exact odds of this d20 fight take more than {seconds} s",
               seconds=number(seconds, "")),
            hint=tr("fewer or weaker enemies (less HP) keep the odds exact"),
        )  # fmt: skip

    @classmethod
    def states(cls, budget: int) -> D20OddsTooLarge:
        """Past the state budget of one exact computation."""
        return cls(
            tr("the exact odds of this d20 fight need more than {count} states",
               count=number(budget, ",")),
            hint=tr("fewer or weaker enemies (less HP) keep the odds exact"),
        )  # fmt: skip


@dataclass(frozen=True, slots=True)
class AttackLaw:
    """One attack: ``miss`` (the target may riposte), ``stay`` (a hit that does no damage),
    ``hits`` (damage >= 1, probability), in increasing damage."""

    miss: float
    stay: float
    hits: tuple[tuple[int, float], ...]

    def wound_at_least(self, health: int) -> float:
        """The chance that this attack brings a target of ``health`` to 0."""
        return sum(p for damage, p in self.hits if damage >= health)


class _Tape:
    """A random source that shows the faces of one path of the walk (0-based choices per
    roll call, each over all ``sides ** n`` face tuples), recording the sizes it offered."""

    __slots__ = ("prefix", "choices", "sizes")

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix = prefix
        self.choices: list[int] = []
        self.sizes: list[int] = []

    def roll_dice(self, n: int, sides: int) -> tuple[int, ...]:
        at = len(self.choices)
        index = self.prefix[at] if at < len(self.prefix) else 0
        self.choices.append(index)
        self.sizes.append(sides**n)
        faces = []
        for _ in range(n):
            index, face = divmod(index, sides)
            faces.append(face + 1)
        return tuple(faces)

    def roll(self, sides: int) -> int:
        return self.roll_dice(1, sides)[0]

    def roll2(self, sides: int) -> tuple[int, int]:
        first, second = self.roll_dice(2, sides)
        return first, second


def every_roll(function, budget: int = ROLL_BUDGET) -> list[tuple[Fraction, object]]:
    """``function(rng)`` for every sequence of faces ``rng`` can show, with its chance."""
    found: list[tuple[Fraction, object]] = []
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        tape = _Tape(prefix)
        value = function(tape)
        size = 1
        for one in tape.sizes:
            size *= one
        found.append((Fraction(1, size), value))
        if sum(tape.sizes[len(prefix) :]) + len(found) + len(stack) > budget:
            raise D20OddsTooLarge(
                tr("one attack has more than {count} dice outcomes", count=number(budget, ",")),
                hint=tr("weapons and dice of ordinary size keep the odds exact"),
            )
        for at in range(len(prefix), len(tape.sizes)):
            head = tuple(tape.choices[:at])
            stack.extend(head + (k,) for k in range(1, tape.sizes[at]))
    return found


def law_key(params: D20Fight, attacker: Fighter, defender: Fighter) -> tuple:
    """Everything ``attack_roll`` reads: two attacks with the same key have the same law."""
    dice = params.dice.text if params.dice is not None else None
    return (
        dice, params.base_ac, params.automatic_lead, params.critical_face,
        params.critical_multiplier, attacker.attack, attacker.action, attacker.damage.text,
        defender.ac, defender.reduction,
    )  # fmt: skip


_LAWS: dict[tuple, AttackLaw] = {}


def attack_law(params: D20Fight, attacker: Fighter, defender: Fighter) -> AttackLaw:
    """The exact law of ``attacker`` striking ``defender`` once (memoised by :func:`law_key`)."""
    key = law_key(params, attacker, defender)
    found = _LAWS.get(key)
    if found is not None:
        return found
    miss = stay = Fraction(0)
    hits: dict[int, Fraction] = {}
    for chance, (hit, _total, damage, _faces) in every_roll(
        lambda rng: attack_roll(params, rng, attacker, defender)
    ):
        if not hit:
            miss += chance
        elif damage <= 0:
            stay += chance
        else:
            hits[damage] = hits.get(damage, 0) + chance
    if len(_LAWS) > 10_000:
        _LAWS.clear()
    found = _LAWS[key] = AttackLaw(
        float(miss), float(stay), tuple((d, float(p)) for d, p in sorted(hits.items()))
    )
    return found
