"""Exact odds of d20 fights (procedure ``d20``, :mod:`dedale.rules.fight_d20`).

The fighters come from the fight's own setup (:func:`fight_d20.fighters`: the hero's
weapon, armour, bonuses, the enemies' AC, attack, damage, RD; the paragraph's enemy
damage; enemies fought as one merged) and each attack's law from its own ``attack_roll``
(:mod:`dedale.rules.odds_d20_attack`). A state is (assaults played, when an assault limit
or an escape needs them; the hero's HP; each enemy's HP). An assault is played as the fight
plays it: the hero strikes his target, which ripostes at once if he misses; then each enemy
that fights this assault (every one standing when they fight together, else the target)
strikes the hero, who ripostes if it misses; a riposte is never riposted. An assault that
changes nothing loops on its state and is folded in exactly (divide by 1 - P(stay)).

Decisions are maxima of the chance to leave the fight alive (won, the assault limit
reached, or escaped): the target, when enemies fight together (``target="best"``; ``order``:
the first standing, as the fight does without an answer), and the escape the fight offers
(taken exactly when it is the better choice). The result gives the chance of each way out
and the hero's HP after each, like :class:`dedale.rules.odds.OddsResult`'s end states.
"""

from __future__ import annotations

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.character import Character
from dedale.rules.fight_d20 import fighters
from dedale.rules.fights import FightSpec, fight_outcomes
from dedale.rules.odds_d20_attack import D20OddsTooLarge
from dedale.rules.odds_d20_engine import STATE_BUDGET, D20Engine, D20Odds
from dedale.rules.ruleset import D20Fight, Ruleset

TARGETS = ("best", "order")


def d20_odds(
    ruleset: Ruleset,
    character: Character,
    spec: FightSpec,
    *,
    target: str = "best",
    budget: int = STATE_BUDGET,
    threshold: int | None = None,
    seconds: float | None = None,
    doomed: frozenset[str] = frozenset(),
) -> D20Odds:
    """The exact odds of ``character`` fighting ``spec`` (its enemies' dice stats mixed
    with their exact chances). ``threshold``: the fight stops once an assault leaves the
    hero at this HP or less (the book's "when your HP falls to N"). Raises
    :class:`D20OddsTooLarge` past ``budget`` states or ``seconds`` of CPU (a fight each).
    ``doomed``: the ways out (``limit``, ``escape``, ``threshold``) whose paragraph is a
    death ending (dedale.validator.death_ways): defeats, not ways out alive."""
    params = ruleset.fight
    if not isinstance(params, D20Fight):
        raise GameError(tr("exact d20 odds need a ruleset whose fight procedure is d20"))
    if target not in TARGETS:
        raise GameError(
            tr("unknown target choice '{target}'", target=target), hint=tr("use best or order")
        )
    mixed = fight_outcomes(spec)
    if mixed is None:
        raise D20OddsTooLarge(
            tr("the enemies' dice stats give too many fights to compute exactly"),
            hint=tr("fewer stats written as dice keep the odds exact"),
        )
    results = []
    for one, chance in mixed:
        hero, enemies = fighters(ruleset, character, one)
        engine = D20Engine(
            params, hero, enemies, one, target=target, budget=budget, threshold=threshold,
            seconds=seconds, doomed=doomed,
        )  # fmt: skip
        results.append((float(chance), engine.solve()))
    return results[0][1] if len(results) == 1 else _mix(results)


def _mix(results: list[tuple[float, D20Odds]]) -> D20Odds:
    ends: dict[tuple[str, int], float] = {}
    for chance, odds in results:
        for key, p in odds.ends.items():
            ends[key] = ends.get(key, 0.0) + chance * p
    total = {
        name: sum(c * getattr(o, name) for c, o in results)
        for name in ("win_probability", "limit_probability", "escape_probability",
                     "expected_assaults", "threshold_probability")
    }  # fmt: skip
    decisions = tuple(dict.fromkeys(d for _, o in results for d in o.decisions))
    return D20Odds(**total, ends=ends, states=sum(o.states for _, o in results),
                   decisions=decisions, doomed=results[0][1].doomed)  # fmt: skip


__all__ = ["STATE_BUDGET", "D20Engine", "D20Odds", "D20OddsTooLarge", "d20_odds"]
