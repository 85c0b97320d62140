"""Fights played as graph nodes beyond :mod:`dedale.solve.escape`'s duel: the reader's
decisions inside them (flee or fight on, the target, Luck) are the solver's, by the value
for the book. This module decides which fights are played so (:func:`plays`) and starts
them (:func:`escape_fight`): :class:`dedale.solve.fight_exits.ExitsFight` for one enemy or
several in turn or as one, :class:`dedale.solve.fight_group.GroupFight` for several at
once; their shared machinery is :mod:`dedale.solve.fight_nodes`.
"""

from __future__ import annotations

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.odds_exits import ExitPlan
from dedale.solve.exactness import EXACT
from dedale.solve.fight_exits import ExitsFight
from dedale.solve.fight_group import GroupFight
from dedale.solve.model import Next, SolveLimit


def in_turn_plan(ruleset, spec, bonus: int) -> ExitPlan:
    """The exit odds' plan of a fight without rules of the book (its escape, its limit)."""
    from dedale.rules.odds_inputs import enemy_line_up

    together = spec.mode == "together"
    enemies = enemy_line_up(ruleset, spec.enemies, "sequence" if together else spec.mode)
    return ExitPlan(enemies=tuple(enemies), bonus=bonus, enemy_damage=spec.enemy_damage,
                    limit=spec.assault_limit, escape_after=spec.escape_after)  # fmt: skip


def plays(oracle, runner, statement, spec, setup, luck_stat) -> bool:
    """Whether a fight without rules of the book inside is played here: one with an escape
    (not beside allies), or an assault limit that :mod:`dedale.solve.escape` does not play
    (several enemies in turn or as one, armour, a first-hit bonus) when its Luck is the
    book's or ``--exact`` asks for fractions (with ``--luck none`` the forward pass over
    the exit odds gives it as one chance node, in floats), or one with a defeat exit."""
    from dedale.solve.fights import _won_target

    if statement.allies:
        return False
    if spec.escape_after is not None:
        return True
    if (
        spec.mode == "together"
        and len(spec.enemies) > 1
        and (statement.lose is not None or spec.assault_limit is not None)
    ):  # at once with a defeat exit (a loss goes on with its LUCK) or an assault limit:
        # GroupFight's states, the targets for the book (without a win paragraph: the
        # forward pass, its targets the fight's, with --luck none only)
        return oracle.explorer is not None and _won_target(
            runner, statement, defeat=True) is not None  # fmt: skip
    if spec.assault_limit is None or spec.mode == "together" or statement.win is None:
        return False
    if len(setup.skills) == 1 and not setup.armour and not setup.first_hit_bonus:
        if statement.lose is None:
            return False  # solve.escape plays it
        # a defeat exit: the exit odds' states (solve.escape's duel knows no defeat)
        return oracle.explorer is not None and _won_target(
            runner, statement, defeat=True) is not None  # fmt: skip
    book_luck = luck_stat is not None and oracle.luck_policy == "best"
    return (book_luck or EXACT.get()) and oracle.explorer is not None and _won_target(
        runner, statement, defeat=True) is not None  # fmt: skip


def escape_fight(oracle, runner, statement, spec, ruleset, setup, bonus: int, armour: bool,
                 luck_stat) -> Next:  # fmt: skip
    """The first node of a fight with an escape (or an assault limit, see :func:`plays`)
    and no rule of the book inside: the duel of :mod:`dedale.solve.escape` (one enemy, no
    armour, no first-hit bonus), else an :class:`ExitsFight` (several enemies in turn or as
    one, armour, a first-hit bonus) or a :class:`GroupFight` (several at once)."""
    from dedale.solve.escape import EscapeFight
    from dedale.solve.fights import _won_target

    if oracle.explorer is None or _won_target(runner, statement, defeat=True) is None:
        raise SolveLimit(
            tr("the solver plays an escape only in a fight that turns to a paragraph"),
            statement.span,
        )
    duel = len(setup.skills) == 1 and not setup.armour and not setup.first_hit_bonus
    if duel and statement.lose is None:  # (a defeat exit: the exit odds' states, below)
        if oracle.luck_policy == "none" and not EXACT.get():  # one node: solve/escape_duel
            from dedale.solve.escape_duel import escape_duel

            escape_duel(oracle, runner, statement, setup, bonus)  # (raises when it applies)
        return EscapeFight(oracle.explorer, runner, statement, setup, bonus,
                           oracle.luck_policy).start()  # fmt: skip
    try:
        plan = in_turn_plan(ruleset, spec, bonus)
    except GameError as error:
        raise SolveLimit(error.message, statement.span, hint=error.hint) from None
    if spec.mode == "together" and len(spec.enemies) > 1:
        return GroupFight(oracle, runner, statement, spec, ruleset, plan, armour=armour,
                          luck_stat=luck_stat).start()  # fmt: skip
    return ExitsFight(oracle, runner, statement, ruleset, plan, armour=armour,
                      luck_stat=luck_stat).start()  # fmt: skip
