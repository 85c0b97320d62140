"""d20 fights in exact fractions, for ``dedale solve --exact``.

The exact d20 odds (:class:`dedale.rules.odds_d20_engine.D20Engine`) play the fight phase by
phase in floats: each attack's law is the fight's own ``attack_roll`` walked over every
face (:func:`dedale.rules.odds_d20_attack.every_roll`, in fractions) and rounded to floats.
:class:`ExactD20` is the same engine fed those laws unrounded, as
:class:`dedale.solve.exact_group.XF` numbers (fractions that take the engine's float
constants — ``0.0``, ``1.0``, its tolerances — as the exact values they hold): the same
groups, phases, target and escape choices ("better" by more than the same 1e-12) and
forward pass, every chance exact. Enemies whose stats are dice are mixed by their exact
chances. The work is bounded by the engine's state budget and :data:`SECONDS` of CPU.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from dedale.i18n import tr
from dedale.rules.fight_d20 import Fighter, attack_roll, fighters
from dedale.rules.fights import FightSpec, fight_outcomes
from dedale.rules.odds_d20 import _mix
from dedale.rules.odds_d20_attack import AttackLaw, D20OddsTooLarge, every_roll, law_key
from dedale.rules.odds_d20_engine import D20Engine, D20Odds, _exchange
from dedale.rules.ruleset import D20Fight
from dedale.solve.exact_group import XF

SECONDS = 20.0
"""CPU seconds of one exact d20 fight at most (fractions are costly); past it the fight is
refused at its line."""
LOST = -1

_LAWS: dict[tuple, AttackLaw] = {}


def exact_law(params: D20Fight, attacker: Fighter, defender: Fighter) -> AttackLaw:
    """The law of ``attacker`` striking ``defender`` once, in :class:`XF` (as
    :func:`dedale.rules.odds_d20_attack.attack_law` before its rounding)."""
    key = law_key(params, attacker, defender)
    found = _LAWS.get(key)
    if found is not None:
        return found
    miss = stay = XF(0)
    hits: dict[int, XF] = {}
    for chance, (hit, _total, damage, _faces) in every_roll(
        lambda rng: attack_roll(params, rng, attacker, defender)
    ):
        if not hit:
            miss += chance
        elif damage <= 0:
            stay += chance
        else:
            hits[damage] = hits.get(damage, XF(0)) + chance
    if len(_LAWS) > 10_000:
        _LAWS.clear()
    found = _LAWS[key] = AttackLaw(miss, stay, tuple(sorted(hits.items())))
    return found


class ExactD20(D20Engine):
    """:class:`D20Engine` over exact attack laws (see the module docstring)."""

    def __init__(self, params: D20Fight, hero: Fighter, enemies: list[Fighter],
                 spec: FightSpec, **options) -> None:  # fmt: skip
        super().__init__(params, hero, enemies, spec, **options)
        strike = [exact_law(params, hero, e) for e in enemies]
        struck = [exact_law(params, e, hero) for e in enemies]
        self.struck = struck
        self.hero_blow = [_exchange(strike[i], struck[i], 2 + i, 1) for i in range(len(enemies))]
        self.enemy_blow = [_exchange(struck[i], strike[i], 1, 2 + i) for i in range(len(enemies))]


def exact_d20_odds(ruleset, character, spec: FightSpec, *, target: str = "best") -> D20Odds:
    """:func:`dedale.rules.odds_d20.d20_odds` in fractions (no threshold, no doomed way)."""
    params = ruleset.fight
    mixed = fight_outcomes(spec)
    if mixed is None:
        raise D20OddsTooLarge(
            tr("the enemies' dice stats give too many fights to compute exactly"),
            hint=tr("fewer stats written as dice keep the odds exact"),
        )
    results = []
    for one, chance in mixed:
        hero, enemies = fighters(ruleset, character, one)
        engine = ExactD20(params, hero, enemies, one, target=target, seconds=SECONDS)
        results.append((XF(Fraction(chance)), engine.solve()))
    return results[0][1] if len(results) == 1 else _mix(results)


def exact_d20_outcomes(ruleset, hero, spec: FightSpec) -> tuple[tuple[Any, Any], ...]:
    """``((p, ("f", (HP, None, way) or LOST)), ...)`` with Fraction chances, as
    :func:`dedale.solve.fights_d20.d20_outcomes`."""
    result = exact_d20_odds(ruleset, hero, spec, target="best")
    found: list[tuple[Any, Any]] = [
        (Fraction(p), ("f", (hp, None, way))) for (way, hp), p in result.ends.items() if p > 0
    ]
    lost = 1 - sum((p for p, _ in found), Fraction(0))
    if lost > 0:
        found.append((lost, ("f", LOST)))
    return tuple(found)
