"""A reliques fight as the exact DP's outcome distribution, for the solver's replays.

The fight oracle (:class:`dedale.solve.fights.FightOracle`) hands reliques fights here: the
fight reads one ``f`` token — an index into the outcomes of
:func:`dedale.rules.odds_reliques.reliques_odds` (the way on, the hero's health, his
protection left, his heroism points), or the loss — and sets the hero to it, the armour's
wear counted as the fight counts it (on his first armour). Every choice inside the fight is
the fight's own best (dodge or parry, target, escape; heroism points with ``--luck best``,
never with ``--luck none``): the policy that maximises leaving the fight alive. A fight
whose only extras are "when your health falls to N or less -> X" and "after M assaults won
-> Y" is exact too: those ways on turn to X and Y (the runner's ``jump``).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

from dedale import ast
from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.fights import FightResult, FightSpec
from dedale.solve.exactness import EXACT
from dedale.solve.model import SolveLimit

LOST = -1


def reliques_outcome(oracle, runner, statement: ast.Fight, spec: FightSpec) -> Any:
    """Play a reliques fight as one chance token (see the module docstring)."""
    from dedale.rules.fight_reliques import make_hero
    from dedale.rules.odds_reliques import reliques_odds
    from dedale.rules.odds_reliques_dp import TURNS_WON

    ruleset = runner._fight_ruleset(statement)
    hero = runner.state.hero
    params = ruleset.fight
    threshold = needed = None
    if runner._by_assault(statement) or statement.allies:
        threshold, needed = _extras(runner, statement, ruleset, spec)
    counter = ruleset.heroism.get("ignore_loss")
    key = (
        "reliques", id(ruleset), repr(spec), threshold, needed,
        tuple(sorted(hero.stats.items())),
        tuple(sorted(hero.items.items())), tuple(sorted(hero.protection_worn.items())),
        hero.counters.get(counter, 0) if counter else 0, tuple(sorted(hero.initial.items())),
    )  # fmt: skip
    exact = EXACT.get()
    key = (*key, exact)
    outcomes = oracle._memo.get(key)
    if outcomes is None:
        oracle.fights += 1
        options: dict[str, Any] = {}
        if exact:  # --exact: the same DP in fractions (solve/exact_reliques.py)
            from dedale.solve.exact_reliques import SECONDS, ExactReliquesDP

            options = {"dp_class": ExactReliquesDP, "seconds": SECONDS}
        try:  # one DP per fight (and per number type)
            models = oracle.__dict__.setdefault(f"reliques_models{'_exact' * exact}", {})
            result = reliques_odds(
                ruleset, hero, spec, luck_policy=oracle.luck_policy, models=models,
                threshold=threshold, win_assaults=needed, **options,
            )  # fmt: skip
        except GameError as error:  # too many states, a stat missing
            raise SolveLimit(error.message, statement.span, hint=error.hint) from None
        found: list[tuple[Any, Any]] = [
            (Fraction(p) if exact else p, ("f", end))
            for end, p in sorted(result.outcomes.items()) if p > 0
        ]  # fmt: skip
        lost = (Fraction(1) if exact else 1.0) - sum(p for p, _ in found)
        if lost > (0 if exact else 1e-15):
            found.append((lost, ("f", LOST)))
        outcomes = oracle._memo[key] = tuple(found)
    stream = oracle.stream
    assert stream is not None
    index = stream.take("f", lambda: outcomes)
    if index == LOST:
        hero.set(params.health, 0)
        return FightResult("lost", 0)
    way, health, protection, heroism = index
    armour = make_hero(ruleset, hero, params)
    worn = armour.protection - protection
    if worn > 0 and armour.armour:  # the fight wears the first armour (fight_reliques.hit)
        first = armour.armour[0]
        hero.protection_worn[first] = hero.protection_worn.get(first, 0) + worn
    hero.stats[params.health] = health
    if counter and oracle.luck_policy == "best":  # with --luck none none is ever spent
        hero.counters[counter] = heroism
    if threshold is not None and way == "limit":  # "when your health falls to N -> X"
        return FightResult(way, 0), runner.destination(statement.threshold.target, required=True)
    if way == TURNS_WON:  # "after N assaults won -> Y"
        target = statement.win_assaults.target
        return FightResult("won", 0), runner.destination(target, required=True)
    return FightResult(way, 0)


def _extras(runner, statement: ast.Fight, ruleset, spec: FightSpec):
    """``(N, M)`` of the fight's "when your health falls to N or less -> X" and "after M
    assaults won -> Y" when they are all the book does inside the fight and no assault
    limit shares a way on (the DP follows them:
    :func:`dedale.rules.odds_reliques.reliques_odds`); else SolveLimit."""
    threshold, needed = statement.threshold, statement.win_assaults
    if (
        (threshold is None and needed is None)
        or spec.assault_limit is not None
        or runner._by_assault(replace(statement, threshold=None, win_assaults=None))
        or (needed is not None and needed.count < 1)
        or (
            threshold is not None
            and ruleset.resolve(threshold.stat) != ("stat", ruleset.fight.health)
        )
    ):
        raise SolveLimit(
            tr("the solver cannot play this fight exactly: {reason}",
               reason=tr("the book acts inside this fight (rules, allies, thresholds, tables)")),
            statement.span, hint=tr("dedale solve handles plain reliques fights"),
        )  # fmt: skip
    return (
        None if threshold is None else threshold.value,
        None if needed is None else needed.count,
    )
