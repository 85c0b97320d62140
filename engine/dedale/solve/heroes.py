"""The heroes a ruleset's creation can roll: their exact distribution (by enumerating the
creation's dice through the rules core's own ``create_character``), and the weakest,
median and strongest of them."""

from __future__ import annotations

from dataclasses import dataclass

from dedale.i18n import tr
from dedale.rules import create_character
from dedale.solve.dice import EnumeratedDice, NeedChance, TokenStream
from dedale.solve.model import SolveLimit

MAX_ROLLS = 200_000
"""Creation throws enumerated at most (a ruleset past it is reported)."""


@dataclass(frozen=True, slots=True)
class Hero:
    """A hero to solve for: ``label`` (weakest, median, strongest, given), the stat values
    in the ruleset's order, the class, and its share of the creation dice."""

    label: str
    values: tuple[int, ...]
    class_name: str | None = None
    share: float = 1.0


def creation_distribution(ruleset, class_name: str | None) -> dict[tuple[int, ...], float]:
    """The stat values (in the ruleset's order) creation gives, with their probabilities."""
    found: dict[tuple[int, ...], float] = {}
    ids = [stat.id for stat in ruleset.stats]
    pending: list[tuple[float, tuple]] = [(1.0, ())]
    rolls = 0
    while pending:
        p, tokens = pending.pop()
        rolls += 1
        if rolls > MAX_ROLLS:
            raise SolveLimit(
                tr("the creation dice have more than {count} outcomes", count=MAX_ROLLS),
                hint=tr("give the hero with --hero"),
            )
        try:
            hero = create_character(ruleset, EnumeratedDice(TokenStream(tokens)), class_name)
        except NeedChance as need:
            pending.extend((p * q, (*tokens, token)) for q, token in need.outcomes)
            continue
        values = tuple(hero.stats[stat] for stat in ids)
        found[values] = found.get(values, 0.0) + p
    return found


def landmarks(distribution: dict[tuple[int, ...], float], class_name: str | None) -> list[Hero]:
    """The weakest, median and strongest hero: each stat at its lowest, median and highest
    value (medians of each stat's own distribution)."""
    width = len(next(iter(distribution)))
    low, mid, high = [], [], []
    for index in range(width):
        marginal: dict[int, float] = {}
        for values, p in distribution.items():
            marginal[values[index]] = marginal.get(values[index], 0.0) + p
        ordered = sorted(marginal)
        low.append(ordered[0])
        high.append(ordered[-1])
        running = 0.0
        for value in ordered:
            running += marginal[value]
            if running >= 0.5 - 1e-12:
                mid.append(value)
                break
    return [
        Hero("weakest", tuple(low), class_name),
        Hero("median", tuple(mid), class_name),
        Hero("strongest", tuple(high), class_name),
    ]
