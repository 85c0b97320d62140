"""A fight in turn (or one enemy) played as graph nodes: :class:`ExitsFight` follows the
exact odds with exits (``ExitSolver``: one enemy or several in
turn or as one, armour, a first-hit bonus, the rules of the book under an enemy, events and
exits) state by state: each state before an assault (enemy, hero STAMINA, enemy STAMINA,
LUCK, assault number while it matters, assaults won, first hit, counters, SKILL shift) is a
graph node; where an escape is offered (and no assault limit stops the fight first) the
reader flees — its wound, Luck on it where the ruleset offers it — or fights on; after each
wound Luck is tested, or not, for the book. The ways out are labelled as
:mod:`dedale.solve.acting_forward` labels them (its ``_after``: the interpreter's order of
the hooks), and each turns to its paragraph with the counters and codewords the events
changed (:func:`dedale.solve.fights_acting._apply`). Under ``--exact`` the transitions are
:class:`dedale.solve.exact_exits.ExactExits`, in fractions.
"""

from __future__ import annotations

from typing import Any

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules import modifiers as mods
from dedale.rules.odds_exits import ExitPlan
from dedale.rules.odds_exits_solver import ExitSolver
from dedale.solve.fight_nodes import FightNodes, destination_of
from dedale.solve.model import Decision, Leaf, Next, SolveLimit

LOST = -1
RESULTS = {"kill": "kill", "hero": "hit", "enemy": "hurt", "tie": "tie"}
"""An assault's winner as the walkthrough names it (``("x", result)`` tokens)."""
MAX_COUNTER = 1_000
"""A counter the fight follows past this value: refused as endless (the states are built
depth first, so a counter an event raises on every tie gets there within a thousand
states; a counter bounded by the fight's wounds never does)."""


class ExitsFight(FightNodes):
    """A fight in turn (or one enemy) played by the exact odds with exits' states."""

    def __init__(self, oracle, runner, statement, ruleset, plan: ExitPlan, *, names=(),
                 rule_kinds=(), armour=False, luck_stat=None,
                 fight_luck=False, dead_ends=frozenset()) -> None:  # fmt: skip
        """``fight_luck``: Luck after a wound is the fight's policy (tested when that raises
        the chance to leave the fight alive, by any way; ties: not tested), as the forward
        pass's — ``--luck fight`` under ``--exact``; else it is the reader's decision.
        ``dead_ends``: the ways out ``(way, rule)`` to a death ending, which that policy
        counts as defeats (solve.fights_acting.death_ends)."""
        from dedale.solve.acting_forward import _Forward

        hero = runner.state.hero
        fight = ruleset.fight
        tested = luck_stat if oracle.luck_policy == "best" else None
        super().__init__(oracle, runner, statement, fight.health, tested)
        kind = ExitSolver
        if self.exact:
            from dedale.solve.exact_exits import ExactExits as kind  # type: ignore[assignment]
        try:
            self.solver = kind(ruleset, hero.stats[fight.attack_stat], plan,
                               "best" if tested else "none", mods.hero_abilities(ruleset, hero),
                               armour)  # fmt: skip
            self.forward = _Forward(self.solver, rule_kinds)
            self.forward.defeat = self.lose_to is not None
        except GameError as error:
            raise SolveLimit(error.message, statement.span, hint=error.hint) from None
        self.names = names
        self.win = destination_of(runner, statement.win)
        self.limit_to = destination_of(runner, getattr(statement.assault_limit, "target", None))
        self.luck0 = hero.stats.get(luck_stat, 0) if luck_stat else 0
        self.fight_luck = fight_luck
        self.dead_ends = dead_ends
        self.values: dict[tuple, Any] = {}  # the chance to leave the fight alive, by state

    def node(self, state: tuple) -> Next:
        if any(value > MAX_COUNTER for value in state[7]):
            raise SolveLimit(
                tr("the fight's states are too deep to compute"), self.statement.span,
                hint=tr("an event that changes a counter on an assault nobody is wounded in "
                        "gives the fight endless states"),
            )  # fmt: skip
        return super().node(state)

    def start(self) -> Next:
        from dedale.solve.fights_acting import _limit
        from dedale.validator.fight_plan import Unsupported

        plan, s = self.solver.plan, self.solver
        h = self.runner.state.hero.stats[self.health]
        state = (0, h, plan.enemies[0][1], self.luck0, 0, 0, not s.track_hit,
                 tuple(v for _, v in plan.counters), 0)  # fmt: skip
        try:
            return self.run(state)
        except Unsupported as error:  # a condition reads what the plan does not follow
            raise _limit(self.statement, str(error)) from None
        except GameError as error:
            raise SolveLimit(error.message, self.statement.span, hint=error.hint) from None

    def tree(self, state: tuple):
        s = self.solver
        plan = s.plan
        _index, h, _e, luck, k, _won, _hit, counters, _shift = state
        if plan.limit is not None and k >= plan.limit:
            return self.end((h, luck, "limit", -1, counters))
        fight_on = self.assault(state)
        if plan.escape_after is None or k < plan.escape_after:
            return fight_on
        fight = s.fight
        options = [[(self.one, luck, fight.escape_damage)]]
        if fight.escape_luck:
            options = s._luck_options(fight.escape_damage, luck, fight.luck_wounded,
                                      fight.damage_to_hero)  # fmt: skip
        flee = self.luck_choice([
            self.chance([(q, ("l", d), self.end((h - d, lk, "escaped", -1, counters)))
                         for q, lk, d in option]) for option in options
        ])  # fmt: skip
        return Decision(
            (
                (("a", True), {"kind": "escape", "target": self.away}, flee),
                (("a", False), {"kind": "fight_on"}, fight_on),
            )
        )

    def _rows(self, state: tuple) -> list:
        """One assault from ``state``: ``[(p, winner, options, backs)]``, an option per Luck
        choice (as it is; tested) as rows ``(q, token, state after or ("end", key))``, and
        the share of each that comes back to the very state."""
        s = self.solver
        lead, immune = s._lead(state)
        k2 = min(state[4] + 1, s.k_cap)
        laws = s.outcomes(lead, immune)  # in the solver's number type (exact: fractions)
        found = []
        for p, winner, double in laws:
            trees, backs = [], []
            for option in s._after_wounds(state, winner, k2):
                rows, back = [], 0
                for q, nxt, dealt, wound in option:
                    after = self.forward._after(nxt, winner, double, dealt, wound)
                    if after == state:  # a tie, a blow the armour stops: nothing changed
                        back += q
                    else:
                        rows.append((q, ("x", RESULTS[winner]), after))
                trees.append(rows)
                backs.append(back)
            if len(trees) > 1 and self.fight_luck:  # the fight's policy decides
                pick = self._pick(trees)
                trees, backs = [trees[pick]], [backs[pick]]
            found.append((p, winner, trees, backs))
        return found

    def _pick(self, trees: list) -> int:
        """The fight's Luck choice: Luck tested only when it raises the chance to leave
        alive (in floats by more than a rounding error): the one tie rule,
        ``odds.luck_pick``."""
        from dedale.rules.odds import luck_pick

        return luck_pick([self._worth(rows) for rows in trees])

    def _worth(self, rows: list):
        return sum(
            (q * (self.fight_value(a) if a[0] != "end" else self._end_worth(a[1]))
             for q, _t, a in rows), 0 * self.one,
        )  # fmt: skip

    def _end_worth(self, key) -> int:
        """A way out's worth to the fight's Luck: 0 for a defeat or a death ending."""
        return 0 if _lost(key) or (key[2], key[3]) in self.dead_ends else 1

    def fight_value(self, state: tuple):
        """The chance to leave the fight alive from ``state`` under the fight's Luck."""
        found = self.values.get(state)
        if found is not None:
            return found
        plan = self.solver.plan
        if plan.limit is not None and state[4] >= plan.limit:
            return 0 * self.one if ("limit", -1) in self.dead_ends else self.one
        total = stay = 0 * self.one
        for p, _winner, trees, backs in self._rows(state):
            stay += p * backs[0]
            total += p * self._worth(trees[0])
        found = self.values[state] = total / (1 - stay) if stay < 1 else 0 * self.one
        return found

    def assault(self, state: tuple):
        branches: list[tuple[Any, Any, Any]] = []
        stay: Any = 0
        for p, winner, trees, backs in self._rows(state):
            if len(trees) == 1:
                stay += p * backs[0]
                branches += [(p * q, token, self.sub(after)) for q, token, after in trees[0]]
                continue
            if any(backs):
                raise SolveLimit(tr("a Luck test that may change nothing"), self.statement.span)
            options = [self.chance([(q, t, self.sub(a)) for q, t, a in rows]) for rows in trees]
            branches.append((p, ("x", RESULTS[winner]), self.luck_choice(options)))
        return self.chance(self.fold(branches, stay))

    def sub(self, after: tuple):
        if after[0] != "end":
            return self.node(after)
        if after[1] == LOST:
            return Leaf(0.0)
        return self.end(after[1])

    def end(self, key: tuple):
        """A way out ``(STAMINA, LUCK, way, rule, counters)``: its paragraph."""
        from dedale.solve.fights_acting import _way

        h, luck, way, rule, values = key
        if way == "lost" and self.lose_to is not None:  # beaten: on with 1 STAMINA
            return self.leave(self.lose_to, 1, luck, self.names, values)
        if h <= 0:
            return Leaf(0.0)
        if way == "escaped":
            target = self.away
        else:
            outcome, target = _way(self.runner, self.statement, way, rule)
            if target is None:
                target = self.win if outcome == "won" else self.limit_to
        return self.leave(target, h, luck, self.names, values)


def _lost(key) -> bool:
    """Whether a way out is the loss (LOST, or a defeat exit's ``(0, LUCK, "lost", ...)``)."""
    return key == LOST or key[2] == "lost"
