"""Enemies whose stats are dice (``> enemy OGRE SKILL 2d6 STAMINA 1d6``): exact odds.

The interpreter rolls such stats when the fight starts, so the chance to win is the mix of
the exact odds of every line-up the dice can give, each weighted by its probability (the
dice distributions are exact: :mod:`dedale.rules.dice`; a total below 0 counts as 0, as
when the interpreter rolls it). An enemy rolled with no health left is beaten before the
first assault. The mix is bounded: at most ``MAX_LINE_UPS``
line-ups per fight, and only small dice (``MAX_DICE_SPAN``): past that, the fight's odds
are refused (W032) with the reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction

from dedale.errors import DedaleError, GameError
from dedale.i18n import tr
from dedale.rules.dice import parse_dice

MAX_LINE_UPS = 500  # distinct rolled line-ups of one fight whose odds are mixed
MAX_DICE_SPAN = 600  # sum of count x sides of one stat's dice (2d6: 12)

Triple = tuple[object, object, bool]  # (attack, health, immune); a stat: an int or dice text


def distribution(value: object) -> dict[int, Fraction]:
    """The values a stat may take and their chances (an int: itself, for sure)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return {value: Fraction(1)}
    text = getattr(value, "text", value)
    if not isinstance(text, str):
        raise GameError(tr("a stat must be a number or dice, not {value}", value=repr(value)))
    try:
        expr = parse_dice(text)
    except DedaleError as error:
        raise GameError(error.message, hint=error.hint) from None
    if expr.names:
        raise GameError(
            tr("exact odds need enemy stats without names ({dice})", dice=text),
            hint=tr("write the stat as a number or as dice such as 2d6+1"),
        )
    if sum(d.count * d.sides for d in expr.dice) > MAX_DICE_SPAN:
        raise GameError(
            tr("the dice {dice} of an enemy stat are too large for exact odds", dice=text),
            hint=tr("exact odds mix the line-ups of dice up to {span} faces", span=MAX_DICE_SPAN),
        )
    law: dict[int, Fraction] = {}
    for total, chance in expr.distribution().items():  # rolled below 0: 0, as in play
        law[max(0, total)] = law.get(max(0, total), Fraction(0)) + chance
    return law


def line_ups(enemies: Sequence[Triple]) -> list[tuple[Fraction, tuple[tuple[int, int, bool], ...]]]:
    """Every line-up the enemies' dice may give, with its probability (enemies rolled with
    no health dropped). Raises GameError past ``MAX_LINE_UPS``."""
    stats = [(distribution(attack), distribution(health)) for attack, health, _ in enemies]
    count = 1
    for attack, health in stats:
        count *= len(attack) * len(health)
        if count > MAX_LINE_UPS:
            raise GameError(
                tr(
                    "the enemies' dice give more than {limit} line-ups to mix",
                    limit=MAX_LINE_UPS,
                ),
                hint=tr("give some of the enemies' stats as numbers"),
            )
    per_enemy = [
        [
            (pa * ph, (a, h, bool(immune)))
            for (a, pa), (h, ph) in itertools.product(attack.items(), health.items())
        ]
        for (attack, health), (_, _, immune) in zip(stats, enemies, strict=True)
    ]
    mixed: dict[tuple[tuple[int, int, bool], ...], Fraction] = {}
    for combination in itertools.product(*per_enemy):
        chance = Fraction(1)
        for p, _ in combination:
            chance *= p
        line_up = tuple(enemy for _, enemy in combination if enemy[1] > 0)
        mixed[line_up] = mixed.get(line_up, Fraction(0)) + chance
    return [(chance, line_up) for line_up, chance in mixed.items()]


def mixed_win(enemies: Sequence[Triple], win: Callable[[tuple], float]) -> float:
    """The chance to win against ``enemies`` (stats numbers or dice): ``win(line_up)`` for
    numbers only, else the weighted mean over the rolled line-ups (an empty one is won)."""
    if all(isinstance(a, int) and isinstance(h, int) for a, h, _ in enemies):
        return win(tuple(enemies))
    total = 0.0
    for chance, line_up in line_ups(enemies):
        total += float(chance) * (win(line_up) if line_up else 1.0)
    return total


def has_dice(enemies: Sequence[Triple]) -> bool:
    """True when some stat of the line-up is rolled."""
    return any(not isinstance(a, int) or not isinstance(h, int) for a, h, _ in enemies)
