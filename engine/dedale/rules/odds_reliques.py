"""Exact odds of a reliques fight (procedure ``reliques``, :mod:`dedale.rules.fight_reliques`).

The fight is a Markov chain over turn starts ``(hero health, hero protection, heroism points,
every enemy's (health, protection), turn)``; inside a turn the DP follows the real fight's
order step by step: the initiative duo of every fighter (critical successes first, then by
margin, ties to the hero, then as written; a critical failure leaves no action or one),
rounds of one action each, attack duo, the defender's dodge or parry with an action left
(avoided with a margin at least the attack's), critical defences striking back (a chain
bounded as the fight bounds it), protection absorbing and wearing by 1, the hero's health
level malus on each of his tests, the unarmed damage. The setup comes from the fight's own
functions (``fight_sides``, ``actions_of``) and every test from ``_duo_outcome`` over the 36
faces: no rule is written twice.

The hero's decisions are maxima, taken at the moment the fight asks them: dodge or parry
(knowing the attack's margin), the target each turn against enemies fought together,
escaping when the fight allows it, and, with ``luck_policy="best"``, spending a heroism
point to ignore a loss of health (``heroism.ignore_loss``; ``"none"`` never spends one).
"Winning" is leaving the fight alive by a way on: every enemy down, the assault limit
reached, or an escape survived. A turn where nothing changes returns to the same state:
its value is the fixed point of the turn's best policy (policy iteration, exact).
The fight's ``MAX_ASSAULTS`` guard is not modelled (its chance is below any float).
Past ``max_nodes`` states :class:`ReliquesOddsTooLarge` says why.
"""

from __future__ import annotations

import time

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.character import Character
from dedale.rules.fight_reliques import fight_sides
from dedale.rules.fights import FightSpec
from dedale.rules.odds_reliques_dp import (
    ESCAPED,
    IN_TURN,
    LIMIT,
    MAX_INITIATIVES,
    MAX_NODES,
    WON,
    ReliquesOdds,
    ReliquesOddsTooLarge,
    _ReliquesDP,
)
from dedale.rules.random_source import RandomSource
from dedale.rules.ruleset import ReliquesFight, Ruleset

__all__ = [
    "ESCAPED", "IN_TURN", "LIMIT", "MAX_INITIATIVES", "MAX_LINE_UPS", "MAX_NODES", "WON",
    "ReliquesOdds", "ReliquesOddsTooLarge", "mixed_reliques_odds", "reliques_odds",
    "reliques_wins", "rolled_line_ups",
]  # fmt: skip

MAX_LINE_UPS = 36
"""Line-ups that enemy stats written as dice can give, mixed at most (1d6 x 1d6)."""


def reliques_odds(
    ruleset: Ruleset,
    character: Character,
    spec: FightSpec,
    *,
    luck_policy: str = "best",
    win_only: bool = False,
    max_nodes: int = MAX_NODES,
    seconds: float | None = None,
    models: dict | None = None,
    threshold: int | None = None,
    win_assaults: int | None = None,
    doomed: frozenset[str] = frozenset(),
    dp_class: type | None = None,
) -> ReliquesOdds:
    """The exact odds of ``spec`` fought by ``character`` (who is not changed);
    ``luck_policy`` ``best`` spends heroism points at best, ``none`` never. ``models``
    keeps each fight's DP for the next call (the same fight entered with other health,
    protection or heroism points reads the values already computed). ``threshold``: the
    book's "when your health falls to N or less -> X" (the fight's health stat): after a
    turn that leaves the hero alive at N or less, the fight stops by that way on (``limit``).
    ``win_assaults``: "after N assaults won -> X": the fight is won once the enemies' health
    has gone down in N turns (checked after the threshold, as the book's hooks do).
    ``doomed``: the ways out (``limit``, ``escape``, ``threshold``, ``assaults``) whose
    paragraph is a death ending (dedale.validator.death_ways): defeats, not ways on.
    ``dp_class``: the DP's class (None: floats; solve/exact_reliques.py: fractions)."""
    dp, start = _setup(
        ruleset,
        character,
        spec,
        max_nodes,
        seconds,
        models,
        threshold,
        win_assaults,
        doomed,
        dp_class,
    )
    if luck_policy != "best":
        start = (start[0], start[1], 0, start[3])
    return dp.solve(start, win_only)


def reliques_wins(
    ruleset: Ruleset,
    character: Character,
    spec: FightSpec,
    *,
    max_nodes: int = MAX_NODES,
    seconds: float | None = None,
    models: dict | None = None,
    threshold: int | None = None,
    win_assaults: int | None = None,
    doomed: frozenset[str] = frozenset(),
) -> dict[str, float]:
    """The chance to leave the fight alive with each policy (``none``, ``best``), from one
    DP: never spending a heroism point is its states with none left (``models``: as for
    :func:`reliques_odds`; ``threshold``, ``win_assaults``, ``doomed``: as there)."""
    dp, start = _setup(
        ruleset, character, spec, max_nodes, seconds, models, threshold, win_assaults, doomed
    )
    best = dp.solve(start, True).win_probability
    none = dp.solve((start[0], start[1], 0, start[3]), True).win_probability
    return {"none": none, "best": max(best, none)}


def _setup(
    ruleset, character, spec, max_nodes, seconds, models=None, threshold=None, win_assaults=None,
    doomed=frozenset(), dp_class=None,
):  # fmt: skip
    params = ruleset.fight
    if not isinstance(params, ReliquesFight) or ruleset.duo is None:
        raise GameError(tr("exact reliques odds need a ruleset with the reliques procedure"))
    hero, enemies, bonus = fight_sides(ruleset, character, spec, RandomSource(0))
    if not enemies:
        raise GameError(tr("a fight needs at least one enemy"))
    heroism = 0
    counter = ruleset.heroism.get("ignore_loss")
    if counter:
        heroism = max(0, int(character.counters.get(counter, 0)))
    initial = int(character.initial.get(params.health, hero.health))
    starts = (hero.health + 1) * (hero.protection + 1) * (heroism + 1)
    for enemy in enemies:
        starts *= (max(0, enemy.health) + 1) * (max(0, enemy.protection) + 1)
    if starts * IN_TURN > max_nodes:  # refused at once, before any work
        raise ReliquesOddsTooLarge(
            tr("the exact odds of this reliques fight would need about {count} states "
               "(more than {limit})", count=format(starts * IN_TURN, ","),
               limit=format(max_nodes, ",")),
            hint=tr("its odds are estimated by a seeded simulation instead"),
        )  # fmt: skip
    sides = tuple((e.health, e.protection) for e in enemies)
    start = (hero.health, hero.protection, heroism, sides)
    key = (
        id(ruleset), tuple(sorted((k, v) for k, v in hero.stats.items() if k != params.health)),
        hero.weapon, initial, bonus, spec.mode, spec.assault_limit, spec.escape_after, threshold,
        win_assaults, frozenset(doomed),
        tuple((tuple(sorted(e.stats.items())), e.weapon) for e in enemies),
    )  # fmt: skip
    kind = _ReliquesDP if dp_class is None else dp_class
    dp = models.get(key) if models is not None else None
    if dp is None or dp.ruleset is not ruleset or type(dp) is not kind:
        dp = kind(
            ruleset, params, hero, enemies, bonus, initial, spec, max_nodes, threshold,
            win_assaults, doomed,
        )  # fmt: skip
        if models is not None:
            if len(models) >= 64:
                models.clear()
            models[key] = dp
    dp.nodes = 0
    dp.deadline = None if seconds is None else time.process_time() + seconds
    return dp, start


def rolled_line_ups(spec: FightSpec) -> list[tuple[FightSpec, float]]:
    """Every fight the enemies' dice stats can give (all stats fixed) and its exact chance,
    as the interpreter rolls them when the fight starts (each stat on its own, below 0
    counting as 0); a fight without dice: itself. Past ``MAX_LINE_UPS``:
    :class:`ReliquesOddsTooLarge`."""
    from dedale.rules.fights import fight_outcomes

    if not any(enemy.dice_stats for enemy in spec.enemies):
        return [(spec, 1.0)]
    found = fight_outcomes(spec, MAX_LINE_UPS)
    if found is None:
        raise ReliquesOddsTooLarge(
            tr("the enemies' dice give more than {limit} line-ups to mix", limit=MAX_LINE_UPS),
            hint=tr("its odds are estimated by a seeded simulation instead"),
        )
    return [(rolled, float(chance)) for rolled, chance in found]


def mixed_reliques_odds(
    ruleset: Ruleset, character: Character, spec: FightSpec, **options
) -> ReliquesOdds:
    """:func:`reliques_odds` of a fight whose enemy stats may be dice: the mix of the odds
    of its rolled line-ups (:func:`rolled_line_ups`), each weighted by its exact chance —
    the chance, each way on, and the end states (``options``: as for reliques_odds)."""
    line_ups = rolled_line_ups(spec)
    if len(line_ups) == 1:
        return reliques_odds(ruleset, character, line_ups[0][0], **options)
    win, states, protection = 0.0, 0, 0
    ways: dict[str, float | None] = {WON: 0.0, LIMIT: 0.0, ESCAPED: 0.0}
    outcomes: dict[tuple[str, int, int, int], float] = {}
    for rolled, chance in line_ups:
        found = reliques_odds(ruleset, character, rolled, **options)
        win += chance * found.win_probability
        states += found.states
        protection = found.protection
        for way, value in ((WON, found.won), (LIMIT, found.limit), (ESCAPED, found.escaped)):
            ways[way] = None if value is None else (ways[way] or 0.0) + chance * value
        for key, p in found.outcomes.items():
            outcomes[key] = outcomes.get(key, 0.0) + chance * p
    return ReliquesOdds(min(1.0, win), ways[WON], ways[LIMIT], ways[ESCAPED], states, outcomes,
                        protection)  # fmt: skip
