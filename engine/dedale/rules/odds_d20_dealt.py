"""The wounds a d20 fight without choices deals the hero, from one pass over its cells.

A fight with no choice that reads the hero's HP (one enemy, or enemies met one at a time,
or fought as one; no assault limit, escape or threshold) deals the same wounds whatever
HP the hero starts with: his HP only decides whether he dies first. So one distribution
``{damage d: chance}`` — the hero wins having taken ``d`` — gives the chance to win from
every start ``s`` and the HP the win leaves: the ``d < s`` (the path of fights:
:mod:`dedale.validator.fight_path_d20`). It is :class:`dedale.rules.odds_d20_engine.
D20Engine`'s forward pass with nothing to choose, played on ``(enemy HP, damage taken)``
cells in one sweep (damage at ``cap`` or more is a dead hero, dropped), the enemies met one
at a time being independent duels (their wounds add up: a convolution). The tests hold it
to the engine's ``ends`` to 1e-12.
"""

from __future__ import annotations

from dedale.rules.fight_d20 import Fighter, fighters
from dedale.rules.fights import FightSpec, fight_outcomes
from dedale.rules.odds_d20_attack import AttackLaw, attack_law

Dealt = dict[int, float]


def fight_dealt(ruleset, character, spec: FightSpec, cap: int, budget: int) -> Dealt | None:
    """``{d: chance}`` of winning ``spec`` having taken ``d`` < ``cap`` damage (``d``
    decreasing, as the engine's ``ends`` list them by HP), the enemies' dice stats mixed
    with their exact chances; None when this pass does not apply and the engine must
    answer (a choice to make, an assault that never changes anything, more than
    ``budget`` cells: the engine's own refusal then says why)."""
    if spec.assault_limit is not None or spec.escape_after is not None:
        return None
    if spec.mode == "together" and len(spec.enemies) > 1:  # the hero chooses his target
        return None
    mixed = fight_outcomes(spec)
    if mixed is None or cap <= 0:
        return None
    params = ruleset.fight
    total: dict[int, float] = {}
    for one, chance in mixed:
        hero, enemies = fighters(ruleset, character, one)
        if cap * (sum(max(0, e.health) for e in enemies) + 1) > budget:
            return None  # what the engine may refuse: it says so itself
        found = _met_in_turn(params, hero, enemies, cap)
        if found is None:
            return None
        for d, p in enumerate(found):
            if p > 0.0:
                total[d] = total.get(d, 0.0) + float(chance) * p
    return {d: total[d] for d in sorted(total, reverse=True)}


def _met_in_turn(params, hero: Fighter, enemies: list[Fighter], cap: int) -> list[float] | None:
    """The damage taken (index) at the win against ``enemies`` met one after the other."""
    dist = [1.0] + [0.0] * (cap - 1)
    for enemy in enemies:
        if enemy.health <= 0:
            continue
        duel = duel_dealt(attack_law(params, hero, enemy), attack_law(params, enemy, hero),
                          enemy.health, cap)  # fmt: skip
        if duel is None:
            return None
        added = [0.0] * cap
        for d, p in enumerate(dist):
            if p > 0.0:
                for more in range(cap - d):
                    added[d + more] += p * duel[more]
        dist = added
    return dist


def duel_dealt(strike: AttackLaw, struck: AttackLaw, health: int, cap: int) -> list[float] | None:
    """``found[d]``: the chance that a hero who cannot die beats an enemy of ``health`` HP
    having taken ``d`` < ``cap`` damage (``strike``: his attack, ``struck``: the enemy's;
    an assault is the hero's blow with the enemy's riposte after a miss, then the enemy's
    blow with the hero's riposte, as the engine plays it). None: an assault never changes
    anything (the engine's endless fight)."""
    stay0 = strike.stay + strike.miss * (struck.miss + struck.stay)  # the hero's half
    stay1 = struck.stay + struck.miss * (strike.miss + strike.stay)  # the enemy's half
    loop = stay0 * stay1
    if loop >= 1.0 - 1e-15:
        return None
    won = [0.0] * cap
    if health <= 0:
        won[0] = 1.0
        return won
    hits, wounds = strike.hits, struck.hits
    riposted = [(j, strike.miss * p) for j, p in wounds]  # phase 0: his miss, its riposte
    answered = [(k, struck.miss * p) for k, p in hits]  # phase 1: its miss, his riposte
    first_half = [[0.0] * cap for _ in range(health + 1)]  # mass at the hero's blow
    second_half = [[0.0] * cap for _ in range(health + 1)]  # ... at the enemy's
    first_half[health][0] = 1.0
    for e in range(health, 0, -1):
        row0, row1 = first_half[e], second_half[e]
        for d in range(cap):
            a0, a1 = row0[d], row1[d]
            if a0 == 0.0 and a1 == 0.0:
                continue
            first = (a0 + a1 * stay1) / (1.0 - loop)  # the mass back round after round
            for k, p in hits:
                if k >= e:
                    won[d] += first * p
                else:
                    second_half[e - k][d] += first * p
            for j, p in riposted:
                if d + j < cap:
                    row1[d + j] += first * p
            here = a1 + first * stay0
            for j, p in wounds:
                if d + j < cap:
                    row0[d + j] += here * p
            for k, p in answered:
                if k >= e:
                    won[d] += here * p
                else:
                    first_half[e - k][d] += here * p
    return won
