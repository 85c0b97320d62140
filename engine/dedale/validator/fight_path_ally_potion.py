"""The book's potion inside a fight with allies, on the path of fights.

A potion (``> take 2 Healing Draughts (when STAMINA falls to 4: gain 6 STAMINA)``) acts in a
fight with allies where the interpreter makes it act (``game/fight_hooks.py``): on a wound
that would kill the hero (the wound lands, STAMINA is 0, the potion acts at once and the
fight goes on: the allies still exchange their blows), and after each assault — after the
allies' exchanges, the events and the exits on a condition, *before* the threshold (``when
your STAMINA falls to 3 or less``) — a dose each time, again while STAMINA is still at or
below its number. An ally who takes the enemy's wound for the hero leaves his STAMINA as it
was. An escape's wound is not a fight's wound: a mortal one is death.

:class:`PotionAllySolver` is the allies' labelled exits DP
(:class:`dedale.rules.odds_allies_exits_forward.LabelledAllySolver`, the fight table's own)
with the doses left as one more counter of its states (the last of the book's, before the
allies' STAMINA; no condition can read it) and those two moments added; its ways out carry
the doses left. Several potions of different effects are one code of doses
(:mod:`.fight_path_potions`). The book's potion is not followed here (``≈``, its use not
counted, the doses carried on and used once the fight is over) against several enemies at
once (the allies' solver of fights at once has no doses), when an event or ``first
assault won`` is under the fight (``when it wounds you`` would read a wound the potion took
back), with a table rolled each assault, or a potion whose amount is rolled.
"""

from __future__ import annotations

import dataclasses

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import Message, tr
from dedale.rules.odds_allies_exits_forward import AllyExitForward, LabelledAllySolver
from dedale.rules.odds_exits import ExitOddsTooLarge
from dedale.rules.odds_inputs import check_size
from dedale.validator.fight_path_group_potion import DOSES
from dedale.validator.fight_path_potion import settle
from dedale.validator.fight_path_reasons import error_reason


def ally_potion_reason(fight: ast.Fight, potion) -> Message | None:
    """Why the potion in this fight with allies is not followed (None: it is)."""
    rolled = any(kind.op != "restore" and len(kind.law or ()) > 1
                 for kind in getattr(potion, "kinds", (potion,)))  # fmt: skip
    if fight.mode == "together" and len(fight.enemies) > 1:  # the allies' fight at once
        return tr("the book's potion in a fight with allies against several enemies at once: "
                  "its use is not counted")  # fmt: skip
    if (
        rolled
        or fight.assault_table is not None
        or any(rule.kind in ("event", "first") for rule in fight.rules)
    ):
        return tr("the book's potion in a fight with allies: its use is not counted")
    return None


class PotionAllySolver(LabelledAllySolver):
    """The allies' labelled exits DP with the doses of the book's potion (see the module)."""

    def __init__(self, *args, potion, top: int, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.potion, self.top = potion, top
        self.at = self.own - 1  # the doses: the last of the book's counters
        self.left = 0  # the doses of the state whose ends are being labelled

    def _next(self, state: tuple, winner: str, double: bool, dealt: int, wound: int,
              mode: str, given: int) -> list[tuple]:  # fmt: skip
        counters = state[7]
        d = counters[self.at]
        self.left = d
        if state[1] > 0 or d <= 0:
            return super()._next(state, winner, double, dealt, wound, mode, given)
        found = []  # a mortal wound: the potion takes the hero back from 0
        for (new, left), p in settle(self.potion, self.top, 0, d):
            if new <= 0:
                found.append((p, 0.0))
                continue
            moved = (*state[:1], new, *state[2:7], self._dosed(counters, left), state[8])
            self.left = left
            found += [(p * q, x) for q, x in super()._next(moved, winner, double, dealt,
                                                            wound, mode, given)]  # fmt: skip
        return found

    def _late(self, found):
        if isinstance(found, float):
            return found
        state, alive = found
        h, counters = state[1], state[7]
        d = counters[self.at]
        if d > 0 and h <= self.potion.at:
            settled = settle(self.potion, self.top, h, d)
            if len(settled) != 1:  # a rolled amount: refused before (ally_potion_reason)
                raise ValueError(tr("the book's potion in a fight with allies: its use is not "
                                    "counted"))  # fmt: skip
            (h, d), _ = settled[0]
            state = (*state[:1], h, *state[2:7], self._dosed(counters, d), state[8])
        self.left = d
        return super()._late((state, alive))

    def _out(self, h: int, luck: int, way: str, at: int = -1, k: int = 0) -> float:
        end = super()._out(h, luck, way, at, k)
        end.key = (*end.key, self.left)
        return end

    def _dosed(self, counters: tuple, d: int) -> tuple:
        return (*counters[: self.at], d, *counters[self.at + 1 :])


class PotionAllyForward(AllyExitForward):
    """The forward pass of :class:`PotionAllySolver`: the ends it makes itself (the
    assault limit, the escape) carry the doses of their state too."""

    def _moves(self, state: tuple) -> list:
        moves = super()._moves(state)
        d = state[7][self.solver.at]
        for _, nxt in moves:
            key = getattr(nxt, "key", None)
            if key is not None and len(key) == 4:
                nxt.key = (*key, d)
        return moves


class DosedAllyKernels:
    """The potion in the fights with allies of HeroChain (its attributes are set there)."""

    def dosed_ally_kernel(self, fight: ast.Fight, ways: frozenset, held, s: int, luck: int,
                          d: int):  # fmt: skip
        """(chance to leave by one of ``ways``, (((STAMINA, LUCK, doses left), chance), ...),
        None), or why the potion in this fight is not followed (a Message)."""
        from dedale.validator.fight_path_allies import ally_reason

        why = ally_potion_reason(fight, self.potion) or ally_reason(fight)
        if why is None:
            why = self._passes_left()
        if why is not None:
            return why
        try:
            forward = self._dosed_ally_setting(fight, held, luck)
            if isinstance(forward, Message):
                return forward
            found, _lost = forward.outcomes(s, luck if self.luck_stat else None, d)
        except (DedaleError, ValueError, KeyError, ArithmeticError) as error:
            return tr("no exact odds ({reason})", reason=error_reason(error))
        ends: dict[tuple[int, int, int], float] = {}
        for (h, lk, way, at, left), p in found.items():
            if (way, at) in ways and h > 0:
                state = (h, lk if self.luck_stat else luck, left)
                ends[state] = ends.get(state, 0.0) + p
        return sum(ends.values()), tuple(ends.items()), None

    def _dosed_ally_setting(self, fight: ast.Fight, held, luck: int):
        """The setting's solver with the doses, and its forward pass, or why there is none."""
        from dedale.validator.fight_path_allies import setting_plan
        from dedale.validator.fight_path_group import SETTING_SECONDS, _reads
        from dedale.validator.fights import class_fight_kit
        from dedale.validator.fights_allies import allies_of

        read = luck if self.luck_stat and _reads(fight, self.ruleset, self.luck_stat) else None
        settings = self.__dict__.setdefault("dosed_ally_settings", {})
        found = settings.get((id(fight), held, read))
        if found is not None:
            return found
        plan = setting_plan(self, fight, held, luck)
        if isinstance(plan, Message):
            return plan
        plan = dataclasses.replace(plan, counters=(*plan.counters, (DOSES, 0)))
        abilities, armour = class_fight_kit(self.ruleset, self.hero.class_name)
        solver = PotionAllySolver(
            self.ruleset, self.skill, plan, self.policy if self.luck_stat else "none",
            abilities, armour, allies_of(self.calculator, fight), fight.struck,
            SETTING_SECONDS, rule_kinds=tuple(rule.kind for rule in fight.rules),
            potion=self.potion, top=self.init_health,
        )  # fmt: skip
        found = settings[(id(fight), held, read)] = _Started(PotionAllyForward(solver))
        return found


class _Started:
    """A forward pass whose start holds the doses (the plan's counter starts at 0)."""

    def __init__(self, forward: PotionAllyForward) -> None:
        self.forward = forward
        self.solver = forward.solver

    def outcomes(self, stamina: int, luck: int | None, d: int):
        solver = self.solver
        plan = solver.plan
        counters = tuple(v for _, v in plan.counters) + tuple(s for _, s in solver.allies)
        counters = solver._dosed(counters, d)
        start = (0, stamina, plan.enemies[0][1], luck or 0, 0, 0, not solver.track_hit,
                 counters, 0)  # fmt: skip
        check_size(max(0, luck or 0), stamina, plan.enemies)
        try:
            solver.value(start)
            return self.forward._run(start)
        except RecursionError:
            raise ExitOddsTooLarge(tr("the fight's states are too deep to compute")) from None
