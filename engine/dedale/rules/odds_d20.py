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

from dataclasses import dataclass, field

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.character import Character
from dedale.rules.fight_d20 import Fighter, fighters
from dedale.rules.fights import (
    ESCAPED,
    LIMIT,
    MAX_ASSAULTS,
    WON,
    FightSpec,
    endless_fight,
    fight_outcomes,
)
from dedale.rules.odds_d20_attack import AttackLaw, D20OddsTooLarge, attack_law
from dedale.rules.ruleset import D20Fight, Ruleset

STATE_BUDGET = 60_000
"""Most fight states one exact computation visits (past it: :class:`D20OddsTooLarge`)."""
TARGETS = ("best", "order")
LOSS = None

State = tuple  # (assaults, hero HP, enemy HP, ...)


@dataclass(frozen=True, slots=True)
class D20Odds:
    """Exact results of one d20 fight; ``ends`` holds the unconditional chance of each
    way out alive with the hero's HP then: ``{(way, HP): p}``, way in won/limit/escaped."""

    win_probability: float
    limit_probability: float
    escape_probability: float
    expected_assaults: float
    ends: dict[tuple[str, int], float] = field(default_factory=dict)
    states: int = 0
    decisions: tuple[str, ...] = ()

    @property
    def alive_probability(self) -> float:
        """The chance to leave the fight alive (won, limit reached, escaped)."""
        return self.win_probability + self.limit_probability + self.escape_probability

    @property
    def loss_probability(self) -> float:
        return max(0.0, 1.0 - self.alive_probability)

    @property
    def end_states(self) -> dict[int, float]:
        """The hero's HP after a win (sums to 1; empty when he cannot win)."""
        won = {hp: p for (way, hp), p in self.ends.items() if way == WON}
        total = sum(won.values())
        return {hp: p / total for hp, p in sorted(won.items())} if total > 0 else {}


def d20_odds(
    ruleset: Ruleset,
    character: Character,
    spec: FightSpec,
    *,
    target: str = "best",
    budget: int = STATE_BUDGET,
) -> D20Odds:
    """The exact odds of ``character`` fighting ``spec`` (its enemies' dice stats mixed
    with their exact chances). Raises :class:`D20OddsTooLarge` past ``budget`` states."""
    params = ruleset.fight
    if not isinstance(params, D20Fight):
        raise GameError(tr("exact d20 odds need a ruleset whose fight procedure is d20"))
    if target not in TARGETS:
        raise GameError(f"unknown target choice {target!r}", hint="use best or order")
    mixed = fight_outcomes(spec)
    if mixed is None:
        raise D20OddsTooLarge(
            tr("the enemies' dice stats give too many fights to compute exactly"),
            hint=tr("fewer stats written as dice keep the odds exact"),
        )
    results = []
    for one, chance in mixed:
        hero, enemies = fighters(ruleset, character, one)
        engine = D20Engine(params, hero, enemies, one, target=target, budget=budget)
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
                     "expected_assaults")
    }  # fmt: skip
    decisions = tuple(dict.fromkeys(d for _, o in results for d in o.decisions))
    return D20Odds(**total, ends=ends, states=sum(o.states for _, o in results),
                   decisions=decisions)  # fmt: skip


class D20Engine:
    """The value function of one d20 fight (its fighters as they start), and the forward
    pass of the policy it chooses."""

    def __init__(
        self,
        params: D20Fight,
        hero: Fighter,
        enemies: list[Fighter],
        spec: FightSpec,
        *,
        target: str = "best",
        budget: int = STATE_BUDGET,
    ) -> None:
        self.together = spec.mode == "together"
        self.choose = self.together and target == "best" and len(enemies) > 1
        self.limit = spec.assault_limit
        self.escape_after = spec.escape_after
        marks = [m for m in (self.limit, self.escape_after) if m is not None]
        self.cap = max(marks) if marks else 0
        self.start: State = (0, hero.health, *(e.health for e in enemies))
        self.strike = [attack_law(params, hero, e) for e in enemies]  # hero -> enemy i
        self.struck = [attack_law(params, e, hero) for e in enemies]  # enemy i -> hero
        self.budget = budget
        self.value: dict[State, float] = {}
        self.moves: dict[State, tuple[dict, ...]] = {}
        self.chosen: dict[State, int] = {}  # the option taken; -1: escape
        self.order: list[State] = []

    # ------------------------------------------------------------------ the rules' order
    def _ending(self, state: State) -> str | None:
        """The way the fight ends at the top of its loop in this state, if it does."""
        if all(e <= 0 for e in state[2:]):
            return WON
        if self.limit is not None and state[0] >= self.limit:
            return LIMIT
        return None

    def _escape(self, state: State) -> AttackLaw | None:
        """The blow the hero takes if he escapes now (None: no escape offered)."""
        if self.escape_after is None or state[0] < self.escape_after:
            return None
        first = next(i for i, e in enumerate(state[2:]) if e > 0)
        return self.struck[first]

    def _next_round(self, assaults: int) -> int:
        if self.limit is None:
            return min(assaults + 1, self.cap)
        return assaults + 1

    def _options(self, state: State) -> tuple[dict, ...]:
        """Each choice of target's assault: ``{next state or LOSS: p}``."""
        living = [i for i, e in enumerate(state[2:]) if e > 0]
        targets = living if self.choose else living[:1]
        return tuple(self._assault(state, t, living) for t in targets)

    def _assault(self, state: State, target: int, living: list[int]) -> dict:
        start = (self._next_round(state[0]), *state[1:])
        spread = self._exchange({start: 1.0}, target, hero_first=True)
        for j in living if self.together else (target,):
            spread = self._exchange(spread, j, hero_first=False)
        found: dict = {}
        for s, p in spread.items():
            key = LOSS if s[1] <= 0 else s
            found[key] = found.get(key, 0.0) + p
        return found

    def _exchange(self, spread: dict, i: int, hero_first: bool) -> dict:
        """One attack between the hero and enemy ``i`` (and the riposte after a miss)."""
        first, second = (self.strike[i], self.struck[i]) if hero_first else (
            self.struck[i], self.strike[i])  # fmt: skip
        at = 2 + i
        found: dict = {}

        def add(s: State, p: float) -> None:
            found[s] = found.get(s, 0.0) + p

        hurt_first, hurt_second = (at, 1) if hero_first else (1, at)
        for s, p in spread.items():
            if s[1] <= 0 or s[at] <= 0:  # the hero is dead, or this enemy already down
                add(s, p)
                continue
            add(s, p * first.stay)
            for damage, chance in first.hits:
                add(_wounded(s, hurt_first, damage), p * chance)
            q = p * first.miss  # a miss: the one struck at ripostes at once
            if q > 0.0:
                add(s, q * (second.miss + second.stay))
                for damage, chance in second.hits:
                    add(_wounded(s, hurt_second, damage), q * chance)
        return {s: p for s, p in found.items() if p > 0.0}

    # ------------------------------------------------------------------ values
    def _escape_value(self, state: State, law: AttackLaw) -> float:
        return 1.0 - law.wound_at_least(state[1])

    def solve(self) -> D20Odds:
        """Values bottom-up from the start, then the forward pass of the chosen policy."""
        self._values()
        return self._forward()

    def _values(self) -> None:
        value, moves = self.value, self.moves
        stack = [self.start]
        while stack:
            state = stack[-1]
            if state in value:
                stack.pop()
                continue
            if self._ending(state) is not None:
                value[state] = 1.0
                self.order.append(state)
                stack.pop()
                continue
            options = moves.get(state)
            if options is None:
                options = moves[state] = self._options(state)
                if len(moves) > self.budget:
                    raise D20OddsTooLarge(
                        tr("the exact odds of this d20 fight need more than {count} states",
                           count=self.budget),
                        hint=tr("fewer or weaker enemies (less HP) keep the odds exact"),
                    )  # fmt: skip
            missing = [
                s for option in options for s in option
                if s is not LOSS and s != state and s not in value
            ]  # fmt: skip
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            value[state] = self._best(state, options)
            self.order.append(state)

    def _best(self, state: State, options: tuple[dict, ...]) -> float:
        best, chosen, endless = -1.0, 0, True
        for index, option in enumerate(options):
            stay = option.get(state, 0.0)
            if stay >= 1.0 - 1e-15:
                continue  # this assault never changes anything: it never ends the fight
            endless = False
            rest = sum(p * self.value[s] for s, p in option.items() if s is not LOSS and s != state)
            found = rest / (1.0 - stay)
            if found > best + 1e-12:
                best, chosen = found, index
        law = self._escape(state)
        if law is not None:
            escape = self._escape_value(state, law)
            if endless or escape > best + 1e-12:
                best, chosen, endless = escape, -1, False
        if endless:
            raise endless_fight(MAX_ASSAULTS)
        self.chosen[state] = chosen
        return max(best, 0.0)

    # ------------------------------------------------------------------ forward pass
    def _forward(self) -> D20Odds:
        mass = {self.start: 1.0}
        ends: dict[tuple[str, int], float] = {}
        assaults = 0.0
        decisions: set[str] = set()

        def end(way: str, hp: int, p: float) -> None:
            ends[(way, hp)] = ends.get((way, hp), 0.0) + p

        for state in reversed(self.order):
            m = mass.pop(state, 0.0)
            if m <= 0.0:
                continue
            way = self._ending(state)
            if way is not None:
                end(way, state[1], m)
                continue
            chosen = self.chosen[state]
            if chosen == -1:
                decisions.add("escape")
                law = self._escape(state)
                assert law is not None
                for damage, p in ((0, law.miss + law.stay), *law.hits):
                    if state[1] - damage > 0:
                        end(ESCAPED, state[1] - damage, m * p)
                continue
            if chosen > 0:
                decisions.add("target")
            option = self.moves[state][chosen]
            visits = m / (1.0 - option.get(state, 0.0))
            assaults += visits
            for s, p in option.items():
                if s is not LOSS and s != state:
                    mass[s] = mass.get(s, 0.0) + visits * p
        totals = {
            w: sum(p for (way, _), p in ends.items() if way == w) for w in (WON, LIMIT, ESCAPED)
        }
        return D20Odds(
            win_probability=totals[WON], limit_probability=totals[LIMIT],
            escape_probability=totals[ESCAPED], expected_assaults=assaults,
            ends=dict(sorted(ends.items())), states=len(self.value),
            decisions=tuple(sorted(decisions)),
        )  # fmt: skip


def _wounded(state: State, at: int, damage: int) -> State:
    """``state`` with ``damage`` taken by the hero (``at`` 1) or an enemy (never below 0)."""
    return (*state[:at], max(0, state[at] - damage), *state[at + 1 :])
