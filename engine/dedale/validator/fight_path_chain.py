"""The chained odds of a sequence of steps for one hero profile (the path of fights).

The hero's state is (STAMINA, LUCK, meals left, doses of the book's potion left); a
distribution maps states to the chance of being there alive. A fight maps each state to
the chance of winning from it and the joint (STAMINA, LUCK) the win leaves
(``OddsResult.end_states`` of the exact DP, :class:`~dedale.rules.odds.OddsTable`, one
table per fight setting reused for every starting state); a change moves each state as
the interpreter does (a gain never above the initial value unless ``exceptional``, a loss
never below 0, 0 STAMINA is death); the potion acts after each step as the interpreter
makes it (:func:`settle`), and inside a fight (:meth:`FightKernels.dosed`).

:meth:`HeroChain.forward` runs the steps with a simple meal rule (eat while a whole meal
heals) — the path search uses it; :meth:`HeroChain.best` computes the exact best meal
policy over the states by backward induction (every state the steps can reach, each meal
choice compared), then replays it forward for the chance after each fight.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from dedale.i18n import Message, tr
from dedale.span import Span
from dedale.validator.fight_path_counters import LocalCounters, repeated_fights
from dedale.validator.fight_path_exits import ExitKernels
from dedale.validator.fight_path_kernels import FightKernels
from dedale.validator.fight_path_potion import MAX_DOSES, Potion, settle
from dedale.validator.fight_path_steps import (
    Change,
    Dose,
    Fight,
    ForcedMeal,
    Item,
    Meal,
    Step,
    Unknown,
)
from dedale.validator.fights import Hero, enemy_names

State = tuple[int, int, int, int]  # STAMINA, LUCK, meals left, doses left
Dist = dict[State, float]
MAX_MEALS = 40  # meals followed in the state (more are counted as this many)


@dataclass(frozen=True, slots=True)
class FightStep:
    """One fight of the chain: the chance to win it for a hero who gets there alive, and
    the chance to have survived every step up to its end."""

    paragraph: int
    enemies: str
    chance: float
    cumulative: float
    exact: bool
    span: Span | None = None


@dataclass(slots=True)
class ChainResult:
    win: float
    fights: list[FightStep] = field(default_factory=list)
    reasons: list[tuple[int, Message]] = field(default_factory=list)  # why ``≈``

    @property
    def exact(self) -> bool:
        return not self.reasons


class HeroChain(FightKernels, ExitKernels):
    """Fight kernels and changes for one hero profile (stats, class, Luck policy); the
    book's potion (``potion``, ``doses`` held at the start) if the chain follows one;
    ``deadly``: which destinations are death endings (:func:`dedale.validator.death_ways.deadly`:
    a fight's way out there is a defeat, and its solver plays it as one)."""

    def __init__(
        self,
        ruleset: object,
        hero: Hero,
        policy: str,
        reports: Mapping,
        shifts=None,
        start_items: frozenset[str] = frozenset(),
        potion: Potion | None = None,
        doses: int = 0,
        local: LocalCounters | None = None,
        deadly=None,
    ) -> None:
        from dedale.validator.fights import OddsCalculator

        self.ruleset, self.hero, self.policy = ruleset, hero, policy
        self.reports, self.shifts = reports, shifts
        # only the items that change a fight are followed (the others make no difference)
        self.relevant = frozenset(shifts.items.effects) if shifts is not None else frozenset()
        self.start_items = frozenset(item for item in start_items if self._matters(item))
        self.calculator = OddsCalculator(ruleset)
        params = self.calculator.params
        self.luck_stat = self.calculator.luck_stat
        self.skill = hero.get(params.attack_stat)
        self.init_health = hero.get(params.health) or 0
        self.init_luck = (hero.get(self.luck_stat) or 0) if self.luck_stat else 0
        meals = getattr(ruleset, "meals", None)
        self.heal = meals.heal if meals is not None and meals.stat == params.health else 0
        self.meals0 = _start_meals(ruleset, hero, meals)
        self.tables: dict[tuple, object] = {}
        self.kernels: dict[tuple, tuple[float, tuple, Message | None]] = {}
        self.settings: dict[tuple, tuple] = {}
        self.after: dict[tuple, Dist | None] = {}  # fight_after's results
        self.potion = potion
        self.doses0 = 0  # several kinds: a code (fight_path_potions.Potions), else a count
        if potion is not None:
            self.doses0 = max(0, min(doses, MAX_DOSES)) if type(potion) is Potion else doses
        self.potion_fights: dict[int, object] = {}  # PotionFight per table
        self.local = local  # the counters only one fight changes (fight_path_counters)
        self.deadly = deadly  # ways out to a death ending are defeats (validator.death_ways)
        self._frozen: tuple[Dist, frozenset] | None = None  # see frozen()

    def start(self) -> Dist:
        state = (self.init_health, self.init_luck, self.meals0, self.doses0)
        return dict(self._settled([(state, 1.0)]))

    def _settled(self, states) -> list[tuple[State, float]]:
        """The states after the potion acts where STAMINA is at or below its threshold;
        0 STAMINA is death (left out)."""
        out: dict[State, float] = {}
        for (s, luck, m, d), p in states:
            for (h, left), q in settle(self.potion, self.init_health, s, d):
                if h > 0:
                    out[(h, luck, m, left)] = out.get((h, luck, m, left), 0.0) + p * q
        return list(out.items())

    # ------------------------------------------------------------------ one step

    def moves(self, step: Step, state: State, held: frozenset[str]) -> list[list]:
        """The options of a step from ``state``: each a list of (next state, chance);
        several options only at a meal (eat 0, 1, 2... meals). Dead states are left out."""
        s, luck, m, d = state
        if isinstance(step, Fight) and step.ways is not None:  # a fight with exits
            if d and self.potion is not None:  # the potion in it: fight_path_group_potion
                found = self.dosed_exit_kernel(step.fight, step.ways, held, s, luck, d)
                if isinstance(found, tuple):
                    ends = [((h, lk, m, left), p) for (h, lk, left), p in found[1]]
                    return [self._settled(ends)]
            _, ends, _ = self.exit_kernel(step.fight, step.ways, held, s, luck)
            if d and self.potion is not None:  # the potion acts once the fight is over
                return [self._settled(((h, lk, m, d), p) for (h, lk), p in ends)]
            return [[((h, lk, m, d), p) for (h, lk), p in ends if h > 0]]
        if isinstance(step, Fight):
            if d > 0 and self.potion is not None:
                _, dosed, _ = self.dosed(step.fight, held, s, luck, d)
                return [[((h, lk, m, left), p) for (h, lk, left), p in dosed if h > 0]]
            win, ends, _ = self.kernel(step.fight, held, s, luck)
            return [[((h, lk, m, d), win * p) for (h, lk), p in ends if h > 0]]
        if isinstance(step, Dose):
            left = max(0, min(d + step.count, MAX_DOSES))
            if self.potion is not None:
                left = self.potion.add(d, step.item, step.count)
            return [self._settled([((s, luck, m, left), 1.0)])]
        if isinstance(step, Change):
            return [self._change(step, state)]
        if isinstance(step, Meal):
            if not self.heal or s >= self.init_health:
                return [[(state, 1.0)]]
            most = min(m, math.ceil((self.init_health - s) / self.heal))
            return [[((min(self.init_health, s + k * self.heal), luck, m - k, d), 1.0)]
                    for k in range(most + 1)]  # fmt: skip
        if isinstance(step, ForcedMeal):
            if m > 0:
                return [[((s, luck, m - 1, d), 1.0)]]
            return [self._change(step.penalty, state)] if step.penalty else [[(state, 1.0)]]
        return [[(state, 1.0)]]

    def _change(self, step: Change, state: State) -> list[tuple[State, float]]:
        index = ("health", "luck", "meals").index(step.what)
        value = state[index]
        top = (self.init_health, self.init_luck, self.meals0)[index]
        out: dict[State, float] = {}
        for amount, p in step.law or ((0, 1.0),):
            if step.op == "restore":
                new = top
            elif step.op == "set":  # as the interpreter: never above the initial value
                new = amount if step.exceptional or step.what == "meals" else min(amount, top)
            elif step.op == "sub":
                new = value - amount
            elif step.exceptional or step.what == "meals":
                new = value + amount
            else:
                new = max(value, min(value + amount, top))
            new = max(0, min(new, MAX_MEALS)) if step.what == "meals" else max(0, new)
            moved = list(state)
            moved[index] = new
            key = (moved[0], moved[1], moved[2], moved[3])
            out[key] = out.get(key, 0.0) + p
        return self._settled(out.items())

    # ------------------------------------------------------------------ whole chains

    def forward(self, dist: Dist, held: frozenset[str], steps: tuple[Step, ...], full=False):
        """Run ``steps`` with the simple meal rule (``full``: eat up to the initial
        STAMINA): (distribution, items held, reasons)."""
        reasons: list[tuple[int, Message]] = []
        for step in steps:
            if isinstance(step, Item):
                held = self._moved(held, step)
                continue
            if isinstance(step, Unknown):
                reasons.append((step.paragraph, step.reason))
                continue
            if isinstance(step, Meal):
                dist = self._ate(dist, full)
                continue
            mixed = self.fight_after(step.fight, held, dist) if isinstance(step, Fight) else None
            new: Dist = {} if mixed is None else mixed
            for state, p in dist.items() if mixed is None else ():
                options = self.moves(step, state, held)
                chosen = options[-1] if isinstance(step, Meal) else options[0]
                if isinstance(step, Meal) and self.heal and not full:  # while a meal heals whole
                    whole = max(0, (self.init_health - state[0]) // self.heal)
                    chosen = options[min(whole, len(options) - 1)]
                for target, q in chosen:
                    new[target] = new.get(target, 0.0) + p * q
            if isinstance(step, Dose) or isinstance(step, Fight) and mixed is None:
                why = self._why(step, held, dist)
                if why is not None:
                    reasons.append((step.paragraph, why))
            dist = new
        return dist, held, reasons

    def frozen(self, dist: Dist) -> frozenset:
        """``frozenset(dist.items())`` (a key of the search and of :meth:`fight_after`),
        kept for the last distribution asked: the search asks it of the distribution it
        expands, then the fights of its moves ask it again (a distribution is never changed
        once made)."""
        last = self._frozen
        if last is not None and last[0] is dist:
            return last[1]
        found = frozenset(dist.items())
        self._frozen = (dist, found)
        return found

    def _ate(self, dist: Dist, full: bool) -> Dist:
        """A meal place with the simple rule: eat while a whole meal heals (``full``: up to
        the initial STAMINA) — :meth:`moves`'s option, computed directly. ``dist`` itself
        when no state eats (most moves: the same figures, and the search then knows the
        distribution did not change)."""
        heal, top = self.heal, self.init_health
        if not heal:
            return dist
        for state in dist:  # whether any state eats (the loop below, without the sums)
            if heal < 0 or state[0] < top and state[2] and (full or top - state[0] >= heal):
                break
        else:
            return dist
        new: Dist = {}
        for state, p in dist.items():
            s = state[0]
            if s < top and state[2]:
                m = state[2]
                most = (top - s + heal - 1) // heal  # the meals that bring him to the top
                if m < most:
                    most = m
                k = (top - s) // heal  # the meals that heal in full
                if full or k > most:
                    k = most
                if k:
                    s += k * heal
                    state = (s if s < top else top, state[1], m - k, state[3])
            new[state] = new.get(state, 0.0) + p
        return new

    def _why(self, step: Step, held: frozenset[str], states) -> Message | None:
        """Why a fight or a dose taken is not followed exactly from these states (None:
        it is): the fight's own reason, or the potion's in it, or doses past the bound."""
        if isinstance(step, Dose):
            if any(
                state[3] + step.count > MAX_DOSES
                if self.potion is None
                else self.potion.over(state[3], step.item, step.count)
                for state in states
            ):
                return tr("more than {most} doses of {item}: counted as {most}",
                          most=MAX_DOSES, item=step.item)  # fmt: skip
            return None
        if not isinstance(step, Fight) or not states:
            return None
        first = next(iter(states))
        if step.ways is not None:  # a fight with exits: the first state that is ≈ says why
            for s, luck, _, d in states:
                if d and self.potion is not None:
                    found = self.dosed_exit_kernel(step.fight, step.ways, held, s, luck, d)
                    if not isinstance(found, tuple):
                        return found  # the potion in it is not counted: why
                    if found[2] is not None:
                        return found[2]
                    continue
                why = self.exit_kernel(step.fight, step.ways, held, s, luck)[2]
                if why is not None:
                    return why
            return None
        why = self.kernel(step.fight, held, first[0], first[1])[2]
        if why is None and self.potion is not None:
            dosed = next((state for state in states if state[3] > 0), None)
            if dosed is not None:
                why = self.dosed(step.fight, held, dosed[0], dosed[1], dosed[3])[2]
        return why

    def _plenty(self, steps: tuple[Step, ...]) -> bool:
        """Whether no meal choice matters: no meal to eat, or so many meals that the hero
        can eat up to his initial STAMINA at every place (more STAMINA never lowers the
        chance to survive, so eating is then always best)."""
        places = sum(1 for step in steps if isinstance(step, Meal))
        if not places:
            return True
        if self.potion is not None and (
            self.doses0 or any(isinstance(step, Dose) for step in steps)
        ):
            return False  # with a potion, every meal choice is compared
        if any(isinstance(step, Change) and step.what == "meals" for step in steps):
            return False
        forced = sum(1 for step in steps if isinstance(step, ForcedMeal))
        need = places * math.ceil(max(0, self.init_health - 1) / self.heal) + forced
        return self.meals0 >= need

    def _matters(self, item: str) -> bool:
        """Whether holding the item may change a fight (a book effect, a ruleset item)."""
        if item in self.relevant:
            return True
        if self.shifts is not None and self.ruleset.item(item) is not None:  # type: ignore[attr-defined]
            self.relevant |= {item}
            return True
        return False

    def _moved(self, held: frozenset[str], step: Item) -> frozenset[str]:
        if not self._matters(step.item):
            return held
        return held | {step.item} if step.gained else held - {step.item}

    def replay(self, steps: tuple[Step, ...]) -> ChainResult:
        """The chance to survive ``steps`` when they hold no meal to decide on, or meals
        enough to eat up to the initial STAMINA at each (then the best policy): one
        forward pass (each fight from the whole distribution at once)."""
        result = ChainResult(1.0)
        self.repeated = self.repeated | repeated_fights(steps)
        dist, held = self.start(), self.start_items
        for step in steps:
            arrived = sum(dist.values())
            dist, held, reasons = self.forward(dist, held, (step,), full=True)
            result.reasons.extend(reasons)
            if isinstance(step, Fight):
                left = sum(dist.values())
                result.fights.append(
                    FightStep(
                        step.paragraph,
                        enemy_names(step.fight),
                        left / arrived if arrived > 0 else 0.0,
                        left,
                        not reasons,
                        step.fight.span,
                    )  # fmt: skip
                )
        result.win = sum(dist.values())
        return result

    def best(self, steps: tuple[Step, ...]) -> ChainResult:
        """The exact chance to survive every step with the best meal policy, and the
        chance after each fight (backward induction over the reachable states)."""
        steps = _one_meal_a_window(steps)
        self.repeated = self.repeated | repeated_fights(steps)
        if not self.heal or self._plenty(steps):
            return self.replay(steps)
        risky = _last_risky(steps)
        if risky < len(steps):  # past the last step that may kill, every choice is as good
            result = self.best(steps[:risky]) if risky else self.replay(())
            result.reasons.extend(
                (step.paragraph, step.reason) for step in steps[risky:] if isinstance(step, Unknown)
            )
            return result
        helds = [self.start_items]
        for step in steps:
            held = helds[-1]
            if isinstance(step, Item):
                held = self._moved(held, step)
            helds.append(held)
        reach: list[set[State]] = [set(self.start())]
        for index, step in enumerate(steps):
            following: set[State] = set()
            for state in reach[-1]:
                for option in self.moves(step, state, helds[index]):
                    following.update(target for target, _ in option)
            reach.append(following)
        values: dict[State, float] = dict.fromkeys(reach[-1], 1.0)
        picks: list[dict[State, int]] = [{} for _ in steps]
        for index in range(len(steps) - 1, -1, -1):
            here: dict[State, float] = {}
            for state in reach[index]:
                scores = [
                    sum(q * values[target] for target, q in option)
                    for option in self.moves(steps[index], state, helds[index])
                ]
                best = max(range(len(scores)), key=scores.__getitem__)
                picks[index][state] = best
                here[state] = scores[best]
            values = here
        result = ChainResult(sum(values.values()))
        dist = self.start()
        for index, step in enumerate(steps):
            if isinstance(step, Unknown):
                result.reasons.append((step.paragraph, step.reason))
            arrived = sum(dist.values())
            new: Dist = {}
            for state, p in dist.items():
                options = self.moves(step, state, helds[index])
                for target, q in options[picks[index].get(state, 0)]:
                    new[target] = new.get(target, 0.0) + p * q
            dist = new
            why = self._why(step, helds[index], reach[index]) if arrived > 0 else None
            if why is not None:
                result.reasons.append((step.paragraph, why))
            if isinstance(step, Fight):
                left = sum(dist.values())
                result.fights.append(
                    FightStep(
                        step.paragraph,
                        enemy_names(step.fight),
                        left / arrived if arrived > 0 else 0.0,
                        left,
                        why is None,
                        step.fight.span,
                    )  # fmt: skip
                )
        result.win = sum(dist.values())
        return result


def _one_meal_a_window(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """The steps without a meal place that follows another with nothing between them that
    changes the health or the meals (items, Luck, reasons only): the hero can eat at the
    first whatever he would eat at both, so the choices, and the best one, are the same."""
    kept: list[Step] = []
    fed = False  # a meal place since the last change of the health or the meals
    for step in steps:
        if isinstance(step, Meal):
            if fed:
                continue
            fed = True
        elif not isinstance(step, Item | Unknown) and not (
            isinstance(step, Change) and step.what == "luck"
        ):
            fed = False
        kept.append(step)
    return tuple(kept) if len(kept) < len(steps) else steps


def _last_risky(steps: tuple[Step, ...]) -> int:
    """One past the last step that may lower the chance alive (a fight, a loss or a set
    of the health, a forced meal with a penalty); after it no meal choice changes the
    chance, and the alive mass is what it was (0: no such step)."""
    for index in range(len(steps) - 1, -1, -1):
        step = steps[index]
        if isinstance(step, ForcedMeal):
            step = step.penalty
        if isinstance(step, Fight):
            return index + 1
        if isinstance(step, Change) and step.what == "health":
            negative = any(amount < 0 for amount, _ in step.law or ())
            if step.op in ("sub", "set") or negative:
                return index + 1
    return 0


def _start_meals(ruleset: object, hero: Hero, meals) -> int:
    if meals is None:
        return 0
    start = 0
    for counter in getattr(ruleset, "counters", ()):
        if counter.id == meals.counter:
            start = counter.initial
    classes = getattr(ruleset, "classes", None) or {}
    if hero.class_name in classes:
        start = classes[hero.class_name].counters.get(meals.counter, start)
    return max(0, min(int(start), MAX_MEALS))
