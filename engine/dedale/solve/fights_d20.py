"""A d20 fight as its exact outcome distribution, for the solver's replays.

The oracle (:class:`dedale.solve.fights.FightOracle`) hands d20 fights here: instead of
rolling the blows, the fight reads one ``f`` token — an index into the outcomes of
:func:`dedale.rules.odds_d20.d20_odds` (won or the assault limit reached, with the hero's HP
then, or the loss) — and sets the hero's HP to it. The fighters come from the interpreter's
own setup (the hero's stats, weapon, armour and bonuses as he stands there). Against
several enemies at once the hero strikes the target that gives him the best chance to leave
the fight alive (the fight's own maximum, not the book's: said in docs/solver.md).
"""

from __future__ import annotations

from typing import Any

from dedale import ast
from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.fights import FightResult, FightSpec
from dedale.solve.model import SolveLimit

LOST = -1
"""The ``f`` token of a lost fight (as the opposed fights' oracle)."""


def d20_fight(oracle, runner, statement: ast.Fight, spec: FightSpec, ruleset) -> FightResult:
    """Play one d20 fight from the oracle's token stream (see the module docstring)."""
    _check(runner, statement, spec)
    from dedale.solve.exactness import EXACT

    hero = runner.state.hero
    health = ruleset.fight.health
    exact = EXACT.get()
    key = (
        "d20", id(ruleset), repr(spec), tuple(sorted(hero.stats.items())),
        tuple(sorted(hero.items.items())), repr(sorted(hero.item_effects.items())),
        hero.class_name, exact,
    )  # fmt: skip
    outcomes = oracle._memo.get(key)
    if outcomes is None:
        try:
            if exact:  # --exact: the same engine over exact attack laws (solve/exact_d20.py)
                from dedale.solve.exact_d20 import exact_d20_outcomes

                outcomes = oracle._memo[key] = exact_d20_outcomes(ruleset, hero, spec)
            else:
                outcomes = oracle._memo[key] = d20_outcomes(ruleset, hero, spec)
        except GameError as error:  # too many states, an enemy the fight cannot set up
            raise SolveLimit(error.message, statement.span, hint=error.hint) from None
        oracle.fights += 1
    stream = oracle.stream
    assert stream is not None
    index = stream.take("f", lambda: outcomes)
    if index == LOST:
        hero.set(health, 0)
        return FightResult("lost", 0)
    hp, _luck, way = index  # (as the opposed fights' limit tokens; a d20 fight has no Luck)
    hero.stats[health] = hp  # the fight's end state, within 1..initial
    return FightResult(way, 0)


def d20_outcomes(ruleset, hero, spec: FightSpec) -> tuple[tuple[float, Any], ...]:
    """``((p, ("f", (HP, None, way) or LOST)), ...)``: every way out alive and the loss."""
    from dedale.rules.odds_d20 import d20_odds

    result = d20_odds(ruleset, hero, spec, target="best")
    found: list[tuple[float, Any]] = [
        (p, ("f", (hp, None, way))) for (way, hp), p in result.ends.items() if p > 0
    ]
    if result.loss_probability > 0:
        found.append((result.loss_probability, ("f", LOST)))
    return tuple(found)


def _check(runner, statement: ast.Fight, spec: FightSpec) -> None:
    """Refuse (never approximate) what the exact d20 outcomes do not model."""
    reason = ""
    if runner._by_assault(statement):
        reason = tr("the book acts inside this fight (rules, allies, thresholds, tables)")
    elif spec.escape_after is not None:
        reason = tr("an escape from a d20 fight is the book's choice, not the fight's")
    if reason:
        raise SolveLimit(
            tr("the solver cannot play this fight exactly: {reason}", reason=reason),
            statement.span,
            hint=tr("dedale solve plays d20 fights without escape (see docs/solver.md)"),
        )
