"""Exact odds of FF-family fights by dynamic programming over the fight's states.

A state is (hero stamina, enemy stamina, hero Luck, first assault?, hit yet?, which enemy
of a sequence). Each assault is won, lost, tied or (instant kill rulesets) ended by a
double; ties loop on the same state and are folded in exactly (divide by 1 - P(tie)).
With the best Luck policy, after each wound the value function compares testing Luck
or not and keeps the better; the same choice drives a forward pass that gives the
expected number of assaults and the distributions of STAMINA and LUCK after a win.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules import modifiers as mods
from dedale.rules import odds_grids, odds_prehit
from dedale.rules.fights import EnemySpec
from dedale.rules.odds_forward import Forward
from dedale.rules.odds_inputs import assault_chances, check_size, enemy_line_up, lucky_table
from dedale.rules.ruleset import OpposedFight, Ruleset

if TYPE_CHECKING:
    from dedale.events import Prompt

WIN = -1
LOSS = -2
POLICIES = ("none", "best")
LUCK_TIE = 1e-15
"""Testing Luck after a wound must raise the chance to win the fight by more than this
(relative): where both choices win it exactly as often (a wound that cannot change the
outcome), rounding must not make the hero spend a LUCK point for nothing. The exact
fraction twin (:mod:`dedale.solve.exact_fights`) breaks the same ties by not testing."""


def luck_gains(with_luck: float, without: float) -> bool:
    """Whether testing Luck (chance ``with_luck``) beats not testing (``without``)."""
    return with_luck > without + LUCK_TIE * abs(without)


def luck_pick(worths: Sequence) -> int:
    """The Luck option taken among options worth ``worths`` (each its chance to leave the
    fight alive; option 0: Luck not tested): the first, unless a later one gains on the best
    so far — by more than :data:`LUCK_TIE` in floats (:func:`luck_gains`), strictly in exact
    numbers (fractions: no rounding to absorb). The one tie rule of the passes that follow a
    fight's Luck choices over its states (``rules/odds_exits_forward.py``,
    ``solve/acting_forward.py``, ``solve/fight_graph.py``) and of every Luck choice of the
    fights at once (``rules/odds_group*.py``; their array code calls :func:`luck_gains` on
    arrays: the same comparison)."""
    pick = 0
    for at in range(1, len(worths)):
        worth, best = worths[at], worths[pick]
        if luck_gains(worth, best) if float in (type(worth), type(best)) else worth > best:
            pick = at
    return pick


@dataclass(frozen=True, slots=True)
class OddsResult:
    """Exact results; distributions are conditional on a win (they sum to 1)."""

    win_probability: float
    expected_assaults: float
    stamina_distribution: dict[int, float]
    luck_distribution: dict[int, float]
    states: int = 0
    end_states: dict[tuple[int, int], float] = field(default_factory=dict)
    """The hero's (STAMINA, LUCK) when he wins, jointly (sums to 1; LUCK 0 without Luck):
    what a fight passes on to the next one (the path of fights, the solver)."""


def fight_odds(
    ruleset: Ruleset,
    hero_skill: int | None = None,
    hero_stamina: int | None = None,
    enemies: Sequence[tuple[int, int] | tuple[int, int, bool] | EnemySpec | Mapping] = (),
    *,
    hero: Mapping[str, int] | None = None,
    luck: int | None = None,
    luck_policy: str = "none",
    class_name: str | None = None,
    mode: str = "sequence",
    attack_bonus: int = 0,
    enemy_damage: int | None = None,
    armour: bool | None = None,
    win_only: bool = False,
    target: str = "best",
    luck_work: int | None = None,
) -> OddsResult:
    """Exact odds that the hero wins an FF-family fight (one enemy, a sequence, as one).

    ``luck_policy="best"`` tests Luck after a wound exactly when it raises the chance to
    win (by more than :data:`LUCK_TIE`: a tie goes to not testing). With ``class_name`` the
    class's abilities and kit apply as in the hero's first fight: armour fresh (if the kit
    holds armour), weapon in hand. The hero may also be given as
    ``hero={"SKILL": 10, "STAMINA": 20, "LUCK": 9}`` (current values by id) and enemies as
    such mappings. With ``win_only=True`` only ``win_probability`` is computed
    (no forward pass: ``expected_assaults`` is nan, the distributions are empty), from value
    tables shared by the fights that differ only in the first enemy's STAMINA or the hero's
    STAMINA and LUCK (the validator's case: many fights of a book share stats).
    ``mode="together"``: all the enemies at once (:mod:`dedale.rules.odds_group`), the
    target chosen by ``target`` (``order``: the first living enemy; ``best``: the best),
    ``luck_work`` the best Luck's budget (``odds_group.LUCK_WORK`` by default).
    """
    if hero is not None:
        fight = ruleset.fight
        if not isinstance(fight, OpposedFight):
            raise GameError(tr("exact odds exist only for opposed (FF-family) fights"))
        hero_skill = hero.get(fight.attack_stat) if hero_skill is None else hero_skill
        hero_stamina = hero.get(fight.health) if hero_stamina is None else hero_stamina
        test = ruleset.tests.get(fight.luck_test) if fight.luck_test else None
        if luck is None and test is not None:
            luck = hero.get(test.stat)
    if hero_skill is None or hero_stamina is None:
        raise GameError(tr("fight_odds needs the hero's attack stat and health"))
    if mode == "together":
        from dedale.rules import odds_group

        options = dict(
            luck=luck, luck_policy=luck_policy, target=target, class_name=class_name,
            attack_bonus=attack_bonus, enemy_damage=enemy_damage, armour=armour,
            luck_work=luck_work,
        )  # fmt: skip
        if win_only:
            win = odds_group.shared_group_win(ruleset, hero_skill, hero_stamina, enemies, **options)
            return OddsResult(win, math.nan, {}, {})
        return odds_group.group_odds(ruleset, hero_skill, hero_stamina, enemies, **options)
    if win_only:
        from dedale.rules.odds_shared import shared_win

        win = shared_win(
            ruleset, hero_skill, hero_stamina, enemies, luck=luck, luck_policy=luck_policy,
            class_name=class_name, mode=mode, attack_bonus=attack_bonus,
            enemy_damage=enemy_damage, armour=armour,
        )  # fmt: skip
        return OddsResult(win, math.nan, {}, {})
    table = OddsTable(
        ruleset, hero_skill, enemies, luck_policy=luck_policy, class_name=class_name,
        mode=mode, attack_bonus=attack_bonus, enemy_damage=enemy_damage, armour=armour,
    )  # fmt: skip
    return table.solve(hero_stamina, luck)


class OddsTable:
    """The value function of one fight setting: a grid per enemy, filled bottom-up.

    Regular states (after the first assault, once the hero has hit) live in grids
    ``value[i][luck][h][e]``; the few states before the first assault or before the
    first hit (which matter only with armour or a first-hit bonus) are memoised apart.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        hero_skill: int,
        enemies: Sequence,
        *,
        luck_policy: str = "none",
        class_name: str | None = None,
        mode: str = "sequence",
        attack_bonus: int = 0,
        enemy_damage: int | None = None,
        armour: bool | None = None,
    ) -> None:
        fight = ruleset.fight
        if not isinstance(fight, OpposedFight):
            raise GameError(
                tr("exact odds exist only for opposed (FF-family) fights"),
                hint=tr("this ruleset's fight procedure is not `opposed`"),
            )
        if luck_policy not in POLICIES:
            raise GameError(
                tr("unknown Luck policy '{luck_policy}'", luck_policy=luck_policy),
                hint=tr("use none or best"),
            )
        pairs = enemy_line_up(ruleset, enemies, mode)
        abilities: tuple = ()
        kit_armour = False
        if class_name is not None:
            klass = ruleset.classes.get(class_name)
            if klass is None:
                raise GameError(
                    tr("unknown class '{class_name}'", class_name=class_name),
                    hint=tr("classes: {value}", value=", ".join(ruleset.classes) or "none"),
                )
            abilities = klass.abilities
            for item in klass.kit:
                found = ruleset.item(item)
                if found and mods.has_ability(found.abilities, "first_assault", "no_wound"):
                    kit_armour = kit_armour or found.wear is None or found.wear > 0
        bonus = attack_bonus + mods.ability_value(abilities, "fight", "attack_bonus")
        self.hero_attack = hero_skill + bonus
        if armour is None:
            armour = kit_armour or mods.has_ability(abilities, "first_assault", "no_wound")
        self.armour = armour
        self.first_hit_bonus = mods.ability_value(
            abilities, "first_successful_assault", "bonus_damage"
        )
        self.to_enemy = fight.damage_to_enemy + mods.ability_value(
            abilities, "fight", "damage_bonus"
        )
        self.to_hero = enemy_damage if enemy_damage is not None else fight.damage_to_hero
        self.enemies = pairs
        self.params = [
            assault_chances(fight, hero_skill + bonus, skill, immune) for skill, _, immune in pairs
        ]
        self.fight = fight
        test = ruleset.tests.get(fight.luck_test) if fight.luck_test else None
        self.use_luck = luck_policy == "best" and test is not None
        self.luck_cost = test.cost if test else 0
        if self.use_luck and self.luck_cost <= 0:
            raise GameError(tr("the best Luck policy needs a Luck test that costs Luck"))
        self.lucky: tuple[float, ...] = lucky_table(test.dice) if test is not None else (0.0,)
        # Damage with and without Luck, each way: (plain, lucky, unlucky).
        self.hit = self._shifts(self.to_enemy, fight.luck_wounding, fight.damage_to_enemy)
        self.hurt = self._shifts(self.to_hero, fight.luck_wounded, fight.damage_to_hero)
        self.grids: list[list[list[list[float]]]] = []
        self.choices: list[list[list[list[int]]]] = []
        self.special: dict[tuple, float] = {}
        self.luck_max = -1
        self.stamina_max = 0
        self.special = odds_grids.specials(self)  # shared by the tables of this setting

    def _shifts(self, damage: int, table, base: int) -> tuple[int, int, int] | tuple[int]:
        if table is None or not self.use_luck:
            return (damage,)
        return damage, max(0, damage + table.lucky - base), max(0, damage + table.unlucky - base)

    def p_lucky(self, luck: int) -> float:
        table = self.lucky
        return table[luck] if luck < len(table) else 1.0

    # ------------------------------------------------------------------ grids

    def _fill(self, stamina_max: int, luck_max: int) -> None:
        """Fill the regular grids bottom-up (last enemy first)."""
        check_size(luck_max, stamina_max, self.enemies)
        self.luck_max, self.stamina_max = luck_max, stamina_max
        if odds_grids.take(self):  # the same grids, filled for another table
            return
        count = len(self.enemies)
        self.grids, self.choices = [None] * count, [None] * count
        for index in range(count - 1, -1, -1):
            self._fill_grid(index, 1)
        odds_grids.keep(self)

    def widen_first(self, stamina: int) -> None:
        """Let the first enemy start with up to ``stamina``: only the new columns of its
        grid are computed (a column depends only on lower ones)."""
        skill, old, immune = self.enemies[0]
        if stamina <= old:
            return
        check_size(self.luck_max, self.stamina_max, [(skill, stamina, immune), *self.enemies[1:]])
        self.enemies[0] = (skill, stamina, immune)
        if self.grids:
            self._fill_grid(0, old + 1)
            odds_grids.keep(self)

    def _fill_grid(self, index: int, first: int) -> None:
        """Compute the columns ``first``.. of one enemy's grid (1: the whole grid)."""
        count = len(self.enemies)
        grids, choices = self.grids, self.choices
        luck_max, stamina_max = self.luck_max, self.stamina_max
        use_luck = self.use_luck
        hit, hurt = self.hit, self.hurt
        hd, ud = hit[0], hurt[0]  # plain damage each way (0: that side cannot wound)
        cost = self.luck_cost
        params = self.params[index]
        pk, ph, pe, pt = params.p_kill, params.p_hero, params.p_enemy, params.p_tie
        stay = pt  # the chance an assault leaves the state as it is
        if not hd:
            stay += ph
        if not ud:
            stay += pe
        looping = stay >= 1.0
        denominator = 1.0 - stay
        width = self.enemies[index][1] + 1
        added = width - first
        columns = range(first, width)
        zeros = [0.0] * width
        nxt = grids[index + 1] if index + 1 < count else None
        next_e = self.enemies[index + 1][1] if nxt is not None else 0
        fresh = first == 1
        above = 1.0 + LUCK_TIE  # Luck must gain more than a rounding error (values >= 0)
        if fresh:
            grids[index], choices[index] = [], []
        grid, choice = grids[index], choices[index]
        for luck in range(luck_max + 1):
            lucky_q = self.p_lucky(luck)
            unlucky_q = 1 - lucky_q
            low = grid[max(0, luck - cost)] if luck and use_luck else None
            luck_hit = low is not None and len(hit) == 3 and hd
            luck_hurt = low is not None and len(hurt) == 3 and ud
            if fresh:
                rows: list[list[float]] = [zeros[:]]
                picks: list[list[int]] = [[0] * width]
                grid.append(rows)
                choice.append(picks)
            else:
                rows, picks = grid[luck], choice[luck]
                rows[0].extend(zeros[first:])
                picks[0].extend([0] * added)
            for h in range(1, stamina_max + 1):
                win_next = nxt[luck][h][next_e] if nxt is not None else 1.0
                if fresh:
                    row = [win_next] * width
                    pick = [0] * width
                    rows.append(row)
                    picks.append(pick)
                else:
                    row, pick = rows[h], picks[h]
                    row.extend([win_next] * added)
                    pick.extend([0] * added)
                if looping:  # nothing ever changes: the fight never ends
                    row[first:] = zeros[first:]
                    continue
                hurt_row = rows[h - ud] if h > ud else zeros
                killed = pk * win_next
                if not (luck_hit or luck_hurt):
                    for e in columns:
                        total = killed
                        if hd:
                            total += ph * (row[e - hd] if e > hd else win_next)
                        if ud:
                            total += pe * hurt_row[e]
                        row[e] = total / denominator
                    continue
                lrow = low[h]
                lucky_row = low[h - hurt[1]] if luck_hurt and h > hurt[1] else zeros
                unlucky_row = low[h - hurt[2]] if luck_hurt and h > hurt[2] else zeros
                for e in columns:
                    total = killed
                    flag = 0
                    # The hero wounds the enemy.
                    if hd:
                        best = row[e - hd] if e > hd else win_next
                        if luck_hit:
                            lw = lrow[e - hit[1]] if e > hit[1] else lrow[0]
                            uw = lrow[e - hit[2]] if e > hit[2] else lrow[0]
                            with_luck = lucky_q * lw + unlucky_q * uw
                            if with_luck > best * above:
                                best = with_luck
                                flag = 1
                        total += ph * best
                    # The enemy wounds the hero.
                    if ud:
                        best = hurt_row[e]
                        if luck_hurt:
                            with_luck = lucky_q * lucky_row[e] + unlucky_q * unlucky_row[e]
                            if with_luck > best * above:
                                best = with_luck
                                flag |= 2
                        total += pe * best
                    row[e] = total / denominator
                    pick[e] = flag

    def regular(self, index: int, luck: int, h: int, e: int) -> float:
        """Win probability of a regular state (e <= 0: that enemy has just died)."""
        if h <= 0:
            return 0.0
        if e <= 0:
            if index + 1 >= len(self.enemies):
                return 1.0
            index += 1
            e = self.enemies[index][1]
        return self.grids[index][luck][h][e]

    # ------------------------------------------------------------------ special states

    def _normal(self, state: tuple) -> tuple:
        """Drop flags that cannot matter (no armour / no first-hit bonus)."""
        index, luck, h, e, first, hit = state
        if not self.armour:
            first = False
        if not self.first_hit_bonus:
            hit = True
        return index, luck, h, e, first, hit

    def state_value(self, state: tuple) -> float:
        index, luck, h, e, first, hit = state
        if h <= 0 or e <= 0 or (not first and hit):
            return self.regular(index, luck, h, e)
        found = self.special.get(state)
        if found is not None:
            return found
        if not first and odds_prehit.applies(self):  # before the first hit: in loops
            odds_prehit.fill(self, index, luck, h, e)
            return self.special[state]
        stay, outs = self._moves(state)
        value = sum(p * self.state_value(t) for p, t in outs)
        value = value / (1.0 - stay) if stay < 1.0 else 0.0
        self.special[state] = value
        return value

    def _moves(self, state: tuple) -> tuple[float, list[tuple[float, tuple]]]:
        """Generic transitions of one state, with the policy's Luck choices."""
        index, luck, h, e, first, hit = state
        params = self.params[index]
        fight = self.fight
        outs: list[tuple[float, tuple]] = []
        stay = 0.0
        if params.p_kill:
            outs.append((params.p_kill, (index, luck, h, 0, False, True)))
        low = max(0, luck - self.luck_cost)
        q = self.p_lucky(luck)
        if params.p_hero:
            d = self.to_enemy + (0 if hit else self.first_hit_bonus)
            chosen = [(1.0, (index, luck, h, e - d, False, True))]
            table = fight.luck_wounding
            if self.use_luck and luck and table is not None:
                base = fight.damage_to_enemy
                lucky = (index, low, h, e - max(0, d + table.lucky - base), False, True)
                unlucky = (index, low, h, e - max(0, d + table.unlucky - base), False, True)
                option = [(q, lucky), (1 - q, unlucky)]
                if luck_gains(self._mean(option), self._mean(chosen)):
                    chosen = option
            outs.extend((params.p_hero * p, t) for p, t in chosen)
        if params.p_enemy:
            if first and self.armour:
                outs.append((params.p_enemy, self._normal((index, luck, h, e, False, hit))))
            else:
                d = self.to_hero
                plain = self._normal((index, luck, h - d, e, False, hit))
                chosen = [(1.0, plain)]
                table = fight.luck_wounded
                if self.use_luck and luck and table is not None:
                    base = fight.damage_to_hero
                    lucky = (index, low, h - max(0, d + table.lucky - base), e, False, hit)
                    unlucky = (index, low, h - max(0, d + table.unlucky - base), e, False, hit)
                    option = [(q, self._normal(lucky)), (1 - q, self._normal(unlucky))]
                    if luck_gains(self._mean(option), self._mean(chosen)):
                        chosen = option
                for p, t in chosen:
                    if t == state:
                        stay += params.p_enemy * p
                    else:
                        outs.append((params.p_enemy * p, t))
        if params.p_tie:
            following = self._normal((index, luck, h, e, False, hit))
            if following == state:
                stay += params.p_tie
            else:
                outs.append((params.p_tie, following))
        return stay, outs

    def _mean(self, option: list[tuple[float, tuple]]) -> float:
        return sum(p * self.state_value(t) for p, t in option)

    # ------------------------------------------------------------------ solve

    def _start(self, hero_stamina: int, luck: int | None, first_stamina: int) -> tuple:
        """The start state, the grids filled far enough for it."""
        if hero_stamina <= 0:
            raise GameError(tr("the hero needs at least 1 STAMINA to fight"))
        luck_value = max(0, luck) if luck is not None and self.use_luck else 0
        if hero_stamina > self.stamina_max or luck_value > self.luck_max:
            self._fill(max(hero_stamina, self.stamina_max), max(luck_value, self.luck_max))
        return self._normal((0, luck_value, hero_stamina, first_stamina, True, False))

    def win_probability(
        self, hero_stamina: int, luck: int | None, first_stamina: int | None = None
    ) -> float:
        """The chance to win from the start (no forward pass); ``first_stamina`` starts the
        first enemy lower than the table's (every lower STAMINA is in its grid)."""
        most = self.enemies[0][1]
        first = most if first_stamina is None else first_stamina
        if not 0 < first <= most:
            raise GameError(
                tr("the first enemy's STAMINA must be 1 to {most} in this table", most=most)
            )
        return self.state_value(self._start(hero_stamina, luck, first))

    def solve(self, hero_stamina: int, luck: int | None) -> OddsResult:
        """Win probability, expected assaults and after-win distributions from the start."""
        start = self._start(hero_stamina, luck, self.enemies[0][1])
        win = self.state_value(start)
        forward = Forward(self)
        forward.run(start)
        stamina, lucks, ends = forward.stamina, forward.lucks, forward.ends
        if luck is None:
            lucks = {}
            ends = _at_luck(ends, 0)
        elif not self.use_luck:
            lucks = {luck: sum(lucks.values())}
            ends = _at_luck(ends, luck)
        scale = 1.0 / win if win > 0 else 0.0
        return OddsResult(
            win_probability=win,
            expected_assaults=forward.assaults,
            stamina_distribution={k: v * scale for k, v in sorted(stamina.items()) if v},
            luck_distribution={k: v * scale for k, v in sorted(lucks.items()) if v},
            states=forward.visited,
            end_states={k: v * scale for k, v in sorted(ends.items()) if v},
        )


def _at_luck(ends: dict[tuple[int, int], float], luck: int) -> dict[tuple[int, int], float]:
    """The joint end states with every LUCK set to ``luck`` (Luck unused in the fight)."""
    merged: dict[tuple[int, int], float] = {}
    for (h, _), p in ends.items():
        merged[h, luck] = merged.get((h, luck), 0.0) + p
    return merged


class BestLuckPolicy:
    """A decider that tests Luck after a wound exactly when the exact odds say so.

    Built from the same setting as :func:`fight_odds`; answers ``use_luck`` prompts of
    :func:`dedale.rules.run_fight` from their state parameters, any other prompt with
    ``fallback`` (no escape, first target). Used to cross-check the odds by simulation.
    """

    def __init__(self, table: OddsTable, hero_stamina: int, luck: int, fallback=None) -> None:
        from dedale.rules.decisions import AlwaysNo

        self.table = table
        self.fallback = fallback or AlwaysNo()
        table.solve(hero_stamina, luck)

    def answer(self, prompt: Prompt) -> object:
        from dedale.events import YesNoPrompt  # loaded once simulations run

        if not (isinstance(prompt, YesNoPrompt) and prompt.kind == "use_luck"):
            return self.fallback.answer(prompt)
        params = dict(prompt.params)
        table = self.table
        fight = table.fight
        luck, h, e = params["luck"], params["hero"], params["enemy"]
        index, hit, damage = params["enemy_index"], params["hit"], params["damage"]
        low = max(0, luck - table.luck_cost)
        q = table.p_lucky(luck)
        value = table.state_value
        if params["wound"] == "dealt":
            shift = fight.luck_wounding
            base = fight.damage_to_enemy
            if shift is None:
                return False
            plain = value((index, luck, h, e - damage, False, True))
            lucky = value((index, low, h, e - max(0, damage + shift.lucky - base), False, True))
            unlucky = value((index, low, h, e - max(0, damage + shift.unlucky - base), False, True))
        else:
            shift = fight.luck_wounded
            base = fight.damage_to_hero
            if shift is None or e <= 0:
                return False
            state = table._normal
            plain = value(state((index, luck, h - damage, e, False, hit)))
            lucky = value(
                state((index, low, h - max(0, damage + shift.lucky - base), e, False, hit))
            )
            unlucky = value(
                state((index, low, h - max(0, damage + shift.unlucky - base), e, False, hit))
            )
        return luck_gains(q * lucky + (1 - q) * unlucky, plain)
