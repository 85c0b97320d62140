"""The heroes a ruleset's creation can roll: their exact distribution, and the weakest,
median and strongest of them.

When no stat's roll reads another stat, each stat's distribution comes from its dice
expression (``DiceExpr.distribution``) and the heroes are their product; otherwise the
creation's dice are enumerated through the rules core's own ``create_character``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dedale.i18n import number, tr
from dedale.rules import create_character
from dedale.solve.dice import EnumeratedDice, NeedChance, TokenStream
from dedale.solve.model import SolveLimit

MAX_ROLLS = 200_000
"""Creation throws enumerated at most (a ruleset past it is reported)."""

MAX_HEROES = 20_000
"""Distinct heroes averaged at most (past it the average is not computed, and said so)."""


@dataclass(frozen=True, slots=True)
class Hero:
    """A hero to solve for: ``label`` (weakest, median, strongest, given), the stat values
    in the ruleset's order, the class."""

    label: str
    values: tuple[int, ...]
    class_name: str | None = None


def creation_marginals(ruleset, class_name: str | None) -> list[dict[int, float]] | None:
    """Each stat's own distribution when no roll reads another stat, else None."""
    klass = ruleset.classes.get(class_name) if class_name else None
    found = []
    for stat in ruleset.stats:
        roll = _roll_of(klass, stat)
        if roll is None:
            found.append({0: 1.0})
            continue
        if roll.names:
            return None
        found.append(_marginal(roll))
    return found


def _roll_of(klass, stat):
    """The stat's creation roll (the class's own first)."""
    return (klass.stats.get(stat.id) if klass else None) or stat.roll


def _marginal(roll) -> dict[int, float]:
    """A roll's values as create_character keeps them (never below 0)."""
    marginal: dict[int, float] = {}
    for total, p in roll.distribution().items():
        marginal[max(0, total)] = marginal.get(max(0, total), 0.0) + float(p)
    return marginal


def _independent(ruleset, class_name: str | None) -> dict[str, dict[int, float]]:
    """The distributions of the stats whose roll reads no other stat."""
    klass = ruleset.classes.get(class_name) if class_name else None
    rolls = {stat.id: _roll_of(klass, stat) for stat in ruleset.stats}
    return {ident: _marginal(roll) for ident, roll in rolls.items() if roll and not roll.names}


def creation_distribution(ruleset, class_name: str | None) -> dict[tuple[int, ...], float] | None:
    """The stat values (in the ruleset's order) creation gives, with their probabilities
    (None: more than MAX_HEROES distinct heroes)."""
    marginals = creation_marginals(ruleset, class_name)
    if marginals is None:  # a roll reads another stat: enumerated, when it can be
        independent = _independent(ruleset, class_name)
        if math.prod(len(m) for m in independent.values()) > MAX_HEROES:
            return None
        return _enumerated(ruleset, class_name)
    if math.prod(len(m) for m in marginals) > MAX_HEROES:
        return None
    joint: dict[tuple[int, ...], float] = {(): 1.0}
    for marginal in marginals:
        joint = {(*values, v): p * q for values, p in joint.items() for v, q in marginal.items()}
    return joint


def _enumerated(
    ruleset, class_name: str | None, fixed: dict[str, int] | None = None
) -> dict[tuple[int, ...], float]:
    """The creation's heroes by rolling every die of ``create_character`` in turn (the
    stats in ``fixed`` are given, not rolled)."""
    found: dict[tuple[int, ...], float] = {}
    ids = [stat.id for stat in ruleset.stats]
    pending: list[tuple[float, tuple]] = [(1.0, ())]
    rolls = 0
    while pending:
        p, tokens = pending.pop()
        rolls += 1
        if rolls > MAX_ROLLS:
            raise SolveLimit(
                tr(
                    "the creation dice have more than {count} outcomes",
                    count=number(MAX_ROLLS, ","),
                ),
                hint=tr("give the hero with --hero"),
            )
        try:
            hero = create_character(
                ruleset, EnumeratedDice(TokenStream(tokens)), class_name, fixed=fixed
            )
        except NeedChance as need:
            pending.extend((p * q, (*tokens, token)) for q, token in need.outcomes)
            continue
        values = tuple(hero.stats[stat] for stat in ids)
        found[values] = found.get(values, 0.0) + p
    return found


def landmarks(ruleset, class_name: str | None) -> tuple[list[Hero], dict | None]:
    """The weakest, median and strongest hero (each stat at its lowest, median and highest
    value: medians of each stat's own distribution) and the creation's distribution."""
    marginals = creation_marginals(ruleset, class_name)
    distribution = creation_distribution(ruleset, class_name)
    if marginals is None and distribution is None:  # too many heroes to list them all
        return _derived_landmarks(ruleset, class_name), None
    if marginals is None:
        assert distribution is not None
        marginals = []
        for index in range(len(ruleset.stats)):
            marginal: dict[int, float] = {}
            for values, p in distribution.items():
                marginal[values[index]] = marginal.get(values[index], 0.0) + p
            marginals.append(marginal)
    low = [_pick("weakest", marginal) for marginal in marginals]
    mid = [_pick("median", marginal) for marginal in marginals]
    high = [_pick("strongest", marginal) for marginal in marginals]
    heroes = [
        Hero("weakest", tuple(low), class_name),
        Hero("median", tuple(mid), class_name),
        Hero("strongest", tuple(high), class_name),
    ]
    return heroes, distribution


def _pick(level: str, marginal: dict[int, float]) -> int:
    """A stat's lowest, median or highest value."""
    ordered = sorted(marginal)
    if level != "median":
        return ordered[0] if level == "weakest" else ordered[-1]
    running = 0.0
    for value in ordered:
        running += marginal[value]
        if running >= 0.5 - 1e-12:
            return value
    return ordered[-1]


def _derived_landmarks(ruleset, class_name: str | None) -> list[Hero]:
    """The landmark heroes when a roll reads another stat (d20: ``HP: 8+CON``) and the whole
    creation is too large to list: each stat whose roll reads none at its lowest, median or
    highest value, then the others rolled from them by ``create_character`` (their own dice,
    if any, enumerated and taken at the same level)."""
    independent = _independent(ruleset, class_name)
    heroes = []
    for level in ("weakest", "median", "strongest"):
        fixed = {stat: _pick(level, marginal) for stat, marginal in independent.items()}
        rolled = _enumerated(ruleset, class_name, fixed)
        values = []
        for index in range(len(ruleset.stats)):
            marginal: dict[int, float] = {}
            for hero, p in rolled.items():
                marginal[hero[index]] = marginal.get(hero[index], 0.0) + p
            values.append(_pick(level, marginal))
        heroes.append(Hero(level, tuple(values), class_name))
    return heroes
