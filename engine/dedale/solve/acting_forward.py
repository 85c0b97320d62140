"""The joint outcomes of a fight in which the book acts: by which way the hero leaves it.

:func:`dedale.rules.odds_exits_forward.exit_outcomes` follows a won fight and an assault
limit only; a fight with events and exits ends in more ways — an event that turns to a
paragraph, ``end the fight when …``, ``when your STAMINA falls to …``, ``after N assaults
won``, ``first assault won`` — each to its own paragraph, with the counters and codewords
the events changed. This pass pushes the probability mass through the states and
transitions of ``ExitSolver`` (its assault outcomes, wounds, Luck
options, damage rules, attack modifiers, wound rolls, events), and labels each way out in
the order the interpreter checks them after an assault
(:meth:`dedale.game.fight_hooks.ExtrasHooks.after_assault`): the events of the enemy still
standing, the loss, the ``first assault won`` and ``end the fight when`` rules in the order
written, the threshold, the assaults won. The last enemy's fall ends the fight before the
hooks (the fight loop returns at once): a victory, or "first assault won" when it fell in
the first assault (the interpreter's check after the fight). The Luck decision at each
wound is the one the exit odds' value takes (the fight's policy: tested when that raises
the chance to leave the fight alive by any way by more than ``rules.odds.LUCK_TIE``, by the
base pass's one tie rule :func:`dedale.rules.odds.luck_pick`: rounding must not spend a LUCK
point where both choices leave the fight alive exactly as often). A tie that leaves a state
unchanged is folded in exactly.
"""

from __future__ import annotations

from typing import Any

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.fight_state import happened
from dedale.rules.odds_exits import ExitOddsTooLarge, ExitPlan
from dedale.rules.odds_exits_forward import LOST, AssaultForward
from dedale.rules.odds_exits_solver import ExitSolver
from dedale.rules.odds_inputs import check_size

__all__ = ["LOST", "ActingUnsupported", "acting_outcomes"]


class ActingUnsupported(GameError):
    """A fight whose ways out this pass does not follow (the message says which)."""


def acting_outcomes(
    ruleset, hero_skill: int, hero_stamina: int, plan: ExitPlan, *, luck: int | None = None,
    luck_policy: str = "none", abilities: tuple = (), armour: bool = False,
    rule_kinds: tuple[str, ...] = (), judge: ExitPlan | None = None,
    dead_ends: frozenset[tuple[str, int]] = frozenset(),
) -> tuple[tuple[float, Any], ...]:  # fmt: skip
    """``((p, ("f", (STAMINA, LUCK, way, rule, counters) or LOST)), ...)``: ``way`` is won,
    limit, event, first, exit, threshold or assaults; ``rule`` the index of the fight rule
    that ended it (events, first, exit; else -1), in ``rule_kinds`` order (the kinds of the
    fight's rules as written); ``counters`` the plan's followed values then.

    ``judge`` and ``dead_ends``: the fight's Luck decisions value a way out ``(way, rule)``
    in ``dead_ends`` (its paragraph a death ending: solve.fights_acting) as a defeat, and the
    states by ``judge`` (the plan with those ways as deaths, validator.death_ways), so the
    fight's policy does not take "leaving" to a death as leaving alive; the outcomes keep
    each way to its own paragraph."""
    if plan.escape_after is not None:
        raise ActingUnsupported(tr("the joint outcomes of this fight are not computed: "
                                   "{reason}", reason=tr("an escape")))  # fmt: skip
    if not plan.enemies:
        raise GameError(tr("a fight needs at least one enemy"))
    if any(stamina <= 0 for _, stamina, _ in plan.enemies):
        raise GameError(tr("every enemy needs at least 1 STAMINA"))
    check_size(max(0, luck or 0), hero_stamina, plan.enemies)
    solver = ExitSolver(ruleset, hero_skill, plan, luck_policy, abilities, armour)
    start = (0, hero_stamina, plan.enemies[0][1], luck or 0, 0, 0, not solver.track_hit,
             tuple(v for _, v in plan.counters), 0)  # fmt: skip
    try:
        judged = None
        if judge is not None:
            judged = ExitSolver(ruleset, hero_skill, judge, luck_policy, abilities, armour)
        found, lost = _Forward(solver, rule_kinds, judged, dead_ends).run(start)
    except RecursionError:  # a counter an event raises on every tie, without end
        raise ExitOddsTooLarge(
            tr("the fight's states are too deep to compute"),
            hint=tr("an event that changes a counter on an assault nobody is wounded in "
                    "gives the fight endless states"),
        ) from None  # fmt: skip
    outcomes: list[tuple[float, Any]] = [
        (p, ("f", key)) for key, p in sorted(found.items(), key=repr) if p > 0
    ]
    if lost > 0:
        outcomes.append((lost, ("f", LOST)))
    return tuple(outcomes)


class _Forward(AssaultForward):
    """The forward pass of :mod:`dedale.rules.odds_exits_forward` with every way out
    labelled (``_after``) and valued for the fight's Luck (``_worth``)."""

    unsupported = ActingUnsupported

    def __init__(self, solver: ExitSolver, rule_kinds: tuple[str, ...],
                 judge: ExitSolver | None = None,
                 dead_ends: frozenset[tuple[str, int]] = frozenset()) -> None:  # fmt: skip
        super().__init__(solver)
        self.judge = judge or solver  # what the fight's Luck decisions value the states by
        self.dead_ends = dead_ends  # ways out to a death ending: worth a defeat
        # a defeat exit played in the graph (solve.fight_graph): a loss is the way out
        # (0, LUCK, "lost", -1, counters), not LOST, so that it can go on to its paragraph
        self.defeat = False
        plan = solver.plan
        events = [at for at, kind in enumerate(rule_kinds) if kind == "event"]
        exits = [at for at, kind in enumerate(rule_kinds) if kind == "exit"]
        if len(events) != len(plan.events) or len(exits) > len(plan.exits):
            raise ActingUnsupported(tr("the fight's rules do not match its plan"))
        self.events = tuple(zip(events, plan.events, strict=True))
        # first / exit rules in the order written, then an exit on a threshold (not health)
        checks: list[tuple[str, int, Any]] = []
        exit_at = 0
        for at, kind in enumerate(rule_kinds):
            if kind == "first":
                checks.append(("first", at, None))
            elif kind == "exit":
                checks.append(("exit", at, plan.exits[exit_at]))
                exit_at += 1
        self.checks = tuple(checks)
        self.threshold_exit = plan.exits[exit_at] if exit_at < len(plan.exits) else None
        if exit_at + 1 < len(plan.exits):
            raise ActingUnsupported(tr("the fight's rules do not match its plan"))

    def _limit_end(self, h: int, luck: int, counters: tuple):
        return (h, luck, "limit", -1, counters)

    def _worth(self, key) -> float:
        """A way out's worth to the fight's Luck: 0 for a defeat or a death ending."""
        if key == LOST or key[2] == "lost" or (key[2], key[3]) in self.dead_ends:
            return 0.0
        return 1.0

    def _after(self, state: tuple, winner: str, double: bool, dealt: int, wound: int) -> tuple:
        """Once an assault's wounds are applied: the hooks in the interpreter's order; a
        way out ``("end", key)``, else the state before the next assault."""
        s = self.solver
        plan = s.plan
        index, h, e, luck, k, won, hit, counters, shift = state
        if h <= 0:
            return ("end", (0, luck, "lost", -1, counters) if self.defeat else LOST)
        if dealt > 0 and s.won_cap:
            won = min(won + 1, s.won_cap)
        alive = e > 0
        hero_won = winner in ("hero", "kill")
        if not alive and index + 1 >= len(plan.enemies):
            # the fight loop ends at the last enemy's fall, before the hooks; the
            # interpreter then turns to "first assault won" if that was the first assault
            first = next((at for way, at, _ in self.checks if way == "first"), None)
            if first is not None and k == 1:
                return ("end", (h, luck, "first", first, counters))
            return ("end", (h, luck, "won", -1, counters))
        if alive:  # the events of the enemy fought (none once it has fallen)
            values = list(counters)
            for at, event in self.events:
                if not s._mine(event.enemy, index):
                    continue
                now = (index, h, e, luck, k, won, hit, tuple(values), shift)
                if not s.holds(event.when, now) or not happened(event.on, winner, double, wound):
                    continue
                for name, op, amount in event.counters:
                    slot = s.names.index(name)
                    old = values[slot]
                    values[slot] = (
                        old + amount if op == "add" else max(0, old - amount) if op == "sub"
                        else max(0, amount)
                    )  # fmt: skip
                if event.health:
                    h = max(0, h + event.health)
                    if h <= 0:
                        return ("end", (0, luck, "lost", -1, tuple(values)) if self.defeat
                                else LOST)  # fmt: skip
                shift += event.skill
                if event.leaves:
                    return ("end", (h, luck, "event", at, tuple(values)))
            counters = tuple(values)
        state = (index, h, e, luck, k, won, hit, counters, shift)
        for way, at, when in self.checks:
            if way == "first" and k == 1 and hero_won or way == "exit" and s.holds(when, state):
                return ("end", (h, luck, way, at, counters))
        if (plan.threshold is not None and h <= plan.threshold) or (
            self.threshold_exit is not None and s.holds(self.threshold_exit, state)
        ):
            return ("end", (h, luck, "threshold", -1, counters))
        if plan.win_assaults is not None and won >= plan.win_assaults:
            return ("end", (h, luck, "assaults", -1, counters))
        if not alive:
            index += 1  # the next enemy steps in
            state = (index, h, plan.enemies[index][1], luck, k, won, hit, counters, 0)
        return state
