"""The joint outcomes of a fight with exits against one enemy, one solver per fight setting
(the path of fights, issue 14.4).

:func:`dedale.solve.acting_forward.acting_outcomes` builds the exact odds' solver
(:class:`dedale.rules.odds_exits_solver.ExitSolver`) for each start and throws its values away; the
path of fights asks the same fight from every (STAMINA, LUCK) a distribution holds. Here one
solver per setting (the fight, the items held, the LUCK its conditions read) keeps its
values for every start, and the same forward pass (``acting_forward._Forward``) pushes the
mass of each start through the same choices: the same figures, computed once per state.
The solver's bounds (its states, counted over all the starts) still apply.

An escape (which ``acting_outcomes`` refuses: the solver plays escapes as graph nodes) is
followed here: before an assault from the one it is allowed at, the hero escapes when the
escape's chance to leave alive is at least the value of the state (the solver's value is
the better of the two; within 1e-9, escaping), its wound with Luck where the ruleset allows
and it helps, as :meth:`~dedale.rules.odds_exits_solver.ExitSolver._escape` values it. So a fight
against several enemies one after another with an escape, or one enemy with an escape and
``first assault won``, is chained exactly. An escape to a death ending (``plan.doomed``)
is a defeat: never taken.
"""

from __future__ import annotations

from typing import Any

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.odds_exits import ExitOddsTooLarge, ExitPlan
from dedale.rules.odds_inputs import check_size


class ActingSetting:
    """One fight's solver and forward pass, for every start."""

    def __init__(self, ruleset, skill: int, plan: ExitPlan, policy: str, abilities, armour,
                 rule_kinds: tuple[str, ...]) -> None:  # fmt: skip
        from dedale.rules.odds_exits_solver import ExitSolver
        from dedale.solve.acting_forward import _Forward

        if not plan.enemies:
            raise GameError(tr("a fight needs at least one enemy"))
        if any(stamina <= 0 for _, stamina, _ in plan.enemies):
            raise GameError("every enemy needs at least 1 STAMINA")
        self.plan = plan
        self.solver = ExitSolver(ruleset, skill, plan, policy, abilities, armour)
        forward = _escaping(_Forward) if plan.escape_after is not None else _Forward
        self.forward = forward(self.solver, rule_kinds)

    def outcomes(self, stamina: int, luck: int | None) -> tuple[tuple[float, Any], ...]:
        """As ``acting_outcomes`` from (``stamina``, ``luck``)."""
        from dedale.solve.acting_forward import LOST

        plan, solver = self.plan, self.solver
        check_size(max(0, luck or 0), stamina, plan.enemies)
        start = (0, stamina, plan.enemies[0][1], luck or 0, 0, 0, not solver.track_hit,
                 tuple(v for _, v in plan.counters), 0)  # fmt: skip
        try:
            found, lost = self.forward.run(start)
        except RecursionError:  # a counter an event raises on every tie, without end
            raise ExitOddsTooLarge(tr("the fight's states are too deep to compute")) from None
        outcomes: list[tuple[float, Any]] = [
            (p, ("f", key)) for key, p in sorted(found.items(), key=repr) if p > 0
        ]
        if lost > 0:
            outcomes.append((lost, ("f", LOST)))
        return tuple(outcomes)


TIE = 1e-9


def _escaping(forward: type) -> type:
    """``acting_forward._Forward`` with the escape (see the module docstring)."""
    from dedale.solve.acting_forward import LOST

    class EscapeForward(forward):
        def _moves(self, state: tuple) -> list[tuple[float, tuple]]:
            solver = self.solver
            plan = solver.plan
            _, h, _, luck, k, _, _, counters, _ = state
            if plan.escape_after is None or k < plan.escape_after or "escape" in plan.doomed:
                return super()._moves(state)  # an escape to a death ending: never taken
            if plan.limit is not None and k >= plan.limit:
                return super()._moves(state)
            escape = solver._escape(h, luck)
            if escape < 1.0 - TIE and escape < solver.value(state) - TIE:
                return super()._moves(state)
            fight = solver.fight
            options = [[(1.0, luck, fight.escape_damage)]]
            if fight.escape_luck:
                options = solver._luck_options(
                    fight.escape_damage, luck, fight.luck_wounded, fight.damage_to_hero
                )
            worth = [sum(q for q, _, d in option if h > d) for option in options]
            option = options[worth.index(max(worth))]
            return [
                (q, ("end", (h - d, lk, "escaped", -1, counters)) if h > d else ("end", LOST))
                for q, lk, d in option
            ]

    return EscapeForward
