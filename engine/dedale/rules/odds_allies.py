"""Exact odds of FF-family fights with allies (``> ally BRAN SKILL 8 STAMINA 10``), issue 14.1.

The semantics are the real fight code's (``rules/fight_opposed.py`` run with the book's
hooks, ``game/fight_hooks.py``), assault by assault:

1. The hero's assault against the current enemy (the first one standing), exactly as in
   a fight without allies: instant kill on a double, the hero's wound (first-hit bonus,
   Luck unless the wound kills whatever Luck gives), the enemy's wound (armour on the first
   assault), a tie. Whom the enemies strike this assault: the hero (``struck="hero"``), the
   ally (``"ally"``), or one or the other (``"random"``: one roll per assault, 1/2 each,
   known when the enemy wounds). Struck ally, an ally standing: the first ally standing
   takes the enemy's wound (the hero loses nothing and tests no Luck on it); else the hero
   takes it (Luck whenever he has LUCK: the book acting in the fight never skips the
   offer). A hero at 0 STAMINA loses there and then; the last enemy's death wins there and
   then (the allies do not act).
2. Each ally standing after step 1 (an ally that fell taking the wound does not strike,
   the others do), in order, exchanges blows with the first enemy
   standing (both roll the fight's dice plus their attack stat; no instant kill, no Luck):
   higher ally wounds the enemy (the ruleset's ``damage_to_enemy``, no hero bonus), higher
   enemy wounds the ally only when the ally is struck (the fight's enemy damage, else the
   ruleset's ``damage_to_hero``), a tie does nothing. No enemy left: the hero wins.

Several enemies in turn (``sequence``) or as one (``as_one``); the enemies' state is the
total STAMINA left, which names the current enemy and its STAMINA. A state is (LUCK,
hero STAMINA, enemies' STAMINA left, each ally's STAMINA when allies can be wounded,
the hero's first hit still to come when a class adds damage to it); the first assault
(armour) is one more state. Every move lowers some component and raises none, so the
states are filled in lexicographic order; the chance of coming back to the same state
(ties all round) is folded in exactly. Best Luck is a maximum: after each wound the value
of testing Luck (the ally phase that follows included) is compared with not testing.
Bounded by :data:`MAX_STATES` cells and :data:`SECONDS` of CPU time (:class:`OddsTooLarge`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from dedale.errors import GameError
from dedale.i18n import tr
from dedale.rules.odds import OddsResult, OddsTable, luck_gains
from dedale.rules.odds_allies_luck import tests_luck, wounded
from dedale.rules.odds_allies_setup import ally_line_up
from dedale.rules.odds_allies_setup import too_large as _too_large
from dedale.rules.odds_allies_setup import too_slow as _too_slow
from dedale.rules.odds_inputs import assault_chances
from dedale.rules.ruleset import Ruleset

STRUCK = ("hero", "ally", "random")
MAX_STATES = 200_000  # cells of the value table at most (about 3 s of CPU)
SECONDS = 8.0  # CPU seconds of one table at most
VECTOR = True  # best-Luck tables filled with numpy (rules/odds_allies_fill.py); False: scalar


def ally_odds(
    ruleset: Ruleset,
    hero_skill: int,
    hero_stamina: int,
    enemies: Sequence,
    allies: Sequence,
    *,
    struck: str = "hero",
    luck: int | None = None,
    luck_policy: str = "none",
    class_name: str | None = None,
    mode: str = "sequence",
    attack_bonus: int = 0,
    enemy_damage: int | None = None,
    armour: bool | None = None,
    win_only: bool = False,
    max_states: int | None = None,
    seconds: float | None = None,
) -> OddsResult:
    """Exact odds that the hero wins an FF-family fight with allies (see the module
    docstring); the arguments are :func:`dedale.rules.odds.fight_odds`'s plus ``allies``
    and ``struck``. ``win_only``: no forward pass (``expected_assaults`` nan, no
    distributions). Past ``max_states`` cells or ``seconds`` of CPU (None: :data:`MAX_STATES`,
    :data:`SECONDS`): :class:`OddsTooLarge`."""
    table = AllyTable(
        ruleset, hero_skill, enemies, allies, struck=struck, luck_policy=luck_policy,
        class_name=class_name, mode=mode, attack_bonus=attack_bonus,
        enemy_damage=enemy_damage, armour=armour,
    )  # fmt: skip
    return table.solve(hero_stamina, luck, win_only=win_only, max_states=max_states,
                       seconds=seconds)  # fmt: skip


_TABLES: dict[tuple, tuple[Ruleset, AllyTable]] = {}
_MAX_TABLES = 32
_FLOWS_KEPT = 6  # the newest tables keep their states' moves (rules/odds_allies_forward.py)


def shared_table(ruleset: Ruleset, hero_skill: int, enemies: Sequence, allies: Sequence,
                 **options) -> AllyTable:  # fmt: skip
    """The :class:`AllyTable` of this setting, shared by the validator's rows and its path of
    fights (a table filled for a hero answers any hero with less STAMINA and LUCK)."""
    key = (id(ruleset), hero_skill, tuple(map(tuple, enemies)), tuple(map(tuple, allies)),
           tuple(sorted(options.items())))  # fmt: skip
    found = _TABLES.get(key)
    if found is not None and found[0] is ruleset:
        return found[1]
    if len(_TABLES) >= _MAX_TABLES:
        _TABLES.clear()
    for _, older in list(_TABLES.values())[:-_FLOWS_KEPT]:  # memory: moves kept by few
        older._flows.clear()
    table = AllyTable(ruleset, hero_skill, enemies, allies, **options)
    _TABLES[key] = (ruleset, table)  # the ruleset kept alive: its id stays its own
    return table


class AllyTable:
    """The value table of one fight with allies (the hero's side read from
    :class:`dedale.rules.odds.OddsTable`: class abilities, armour, Luck tables)."""

    def __init__(
        self,
        ruleset: Ruleset,
        hero_skill: int,
        enemies: Sequence,
        allies: Sequence,
        *,
        struck: str = "hero",
        luck_policy: str = "none",
        class_name: str | None = None,
        mode: str = "sequence",
        attack_bonus: int = 0,
        enemy_damage: int | None = None,
        armour: bool | None = None,
    ) -> None:
        if struck not in STRUCK:
            raise GameError(
                tr("unknown struck mode '{struck}'", struck=struck),
                hint=tr("use hero, ally or random"),
            )
        base = OddsTable(
            ruleset, hero_skill, enemies, luck_policy=luck_policy, class_name=class_name,
            mode=mode, attack_bonus=attack_bonus, enemy_damage=enemy_damage, armour=armour,
        )  # fmt: skip
        fight = base.fight
        self.base, self.fight = base, fight
        self.allies = ally_line_up(ruleset, allies)
        self.struck = struck
        if base.to_enemy <= 0:
            raise GameError(tr("exact odds with allies need a hero's wound of at least 1"))
        # The enemies in turn: STAMINA left t names the current enemy and its STAMINA.
        self.total = sum(stamina for _, stamina, _ in base.enemies)
        if self.total + 1 > MAX_STATES:  # before any allocation of that size
            raise _too_large(self.total + 1, MAX_STATES)
        self.index = [0] * (self.total + 1)
        self.current = [0] * (self.total + 1)
        after = self.total
        for i, (_, stamina, _) in enumerate(base.enemies):
            after -= stamina
            for t in range(after + 1, after + stamina + 1):
                self.index[t], self.current[t] = i, t - after
        # The allies' exchanges: no instant kill, no Luck (immune=True: no double kills).
        self.ally_chances = [
            [assault_chances(fight, skill, e_skill, True) for e_skill, _, _ in base.enemies]
            for skill, _ in self.allies
        ]
        self.ally_hit = fight.damage_to_enemy
        self.ally_hurt = enemy_damage or fight.damage_to_hero  # as fight_hooks: `or`
        self.tracked = struck != "hero"  # the allies' STAMINA can change
        self.modes = {"hero": ((1.0, "hero"),), "ally": ((1.0, "ally"),)}.get(
            struck, ((0.5, "hero"), (0.5, "ally"))
        )
        self._phases: dict[tuple, tuple[bool, list]] = {}
        self._afters: dict[tuple, list] = {}
        self.values: list[float] | None = None
        self._flows: dict[int, tuple[float, list, list]] = {}
        self.h0 = self.luck0 = 0

    # ------------------------------------------------------------------ the state space

    def _shape(self, hero_stamina: int, luck: int | None) -> None:
        base = self.base
        self.luck0 = max(0, luck) if luck is not None and base.use_luck else 0
        self.lucks = self.luck0 + 1 if base.use_luck else 1
        self.h0 = hero_stamina
        self.radix = [a + 1 for _, a in self.allies] if self.tracked else []
        self.ally_cells = 1
        for r in self.radix:
            self.ally_cells *= r
        self.hits = 2 if base.first_hit_bonus else 1  # the first hit's bonus still to come
        self.stride_hero = (self.total + 1) * self.ally_cells * self.hits
        self.stride_luck = (self.h0 + 1) * self.stride_hero
        self.cells = self.lucks * self.stride_luck

    def check_size(self, hero_stamina: int, luck: int | None, max_states: int | None = None):
        """Raise :class:`OddsTooLarge` if the table for this hero would be too large (before
        any work: the validator asks for its strongest hero first)."""
        limit = MAX_STATES if max_states is None else max_states
        base = self.base
        lucks = max(0, luck) + 1 if luck is not None and base.use_luck else 1
        allies = 1
        for _, a in self.allies if self.tracked else ():
            allies *= a + 1
        hits = 2 if base.first_hit_bonus else 1
        cells = lucks * (max(1, hero_stamina) + 1) * (self.total + 1) * allies * hits
        if cells > limit:
            raise _too_large(cells, limit)

    def _code(self, staminas: Sequence[int]) -> int:
        code = 0
        for r, a in zip(self.radix, staminas, strict=True):
            code = code * r + a
        return code

    def _decode(self, code: int) -> tuple[int, ...]:
        if not self.tracked:
            return tuple(a for _, a in self.allies)
        found = []
        for r in reversed(self.radix):
            code, a = divmod(code, r)
            found.append(a)
        return tuple(reversed(found))

    def _idx(self, li: int, h: int, t: int, code: int, unhit: int) -> int:
        return (((li * (self.h0 + 1) + h) * (self.total + 1) + t) * self.ally_cells + code) * (
            self.hits
        ) + unhit

    # ------------------------------------------------------------------ one assault

    def _phase(self, t: int, code: int, given: int, mode: str) -> list:
        """The allies' part of an assault from enemies' STAMINA ``t`` and allies ``code``, the
        first ally standing having taken the enemy's wound ``given`` (0: none):
        [(chance, t after, allies' code after)]."""
        key = (t, code, given, mode)
        found = self._phases.get(key)
        if found is not None:
            return found
        staminas = list(self._decode(code))
        if given:  # the wound the first ally standing took for the hero (it may fall)
            first = next(j for j, a in enumerate(staminas) if a > 0)
            staminas[first] = max(0, staminas[first] - given)
        standing = [j for j, a in enumerate(staminas) if a > 0]
        outcomes: list[tuple[float, int, tuple[int, ...]]] = [(1.0, t, tuple(staminas))]
        wounded = mode == "ally"
        for j in standing:
            nxt: list[tuple[float, int, tuple[int, ...]]] = []
            for p, t1, al in outcomes:
                if t1 <= 0:
                    nxt.append((p, t1, al))
                    continue
                chances = self.ally_chances[j][self.index[t1]]
                if chances.p_hero:
                    nxt.append((p * chances.p_hero, t1 - min(self.ally_hit, self.current[t1]), al))
                if chances.p_enemy:
                    if wounded and self.tracked:
                        hurt = al[:j] + (max(0, al[j] - self.ally_hurt),) + al[j + 1 :]
                        nxt.append((p * chances.p_enemy, t1, hurt))
                    else:
                        nxt.append((p * chances.p_enemy, t1, al))
                if chances.p_tie:
                    nxt.append((p * chances.p_tie, t1, al))
            outcomes = nxt
        merged: dict[tuple[int, int], float] = {}
        for p, t1, al in outcomes:
            k = (t1, self._code(al) if self.tracked else 0)
            merged[k] = merged.get(k, 0.0) + p
        found = [(p, t1, c) for (t1, c), p in merged.items()]
        self._phases[key] = found
        return found

    def _after(self, t: int, code: int, given: int, modes=None) -> list[tuple[float, list]]:
        """The allies' part of an assault for each whom-they-strike mode of ``modes`` (None:
        the fight's), with its share: [(chance the fight is won, [(chance, offset of the
        state index)])] (the offset adds the hero's part of the index: LUCK, STAMINA, first
        hit). ``given``: the wound the first ally standing took in the hero's part."""
        modes = self.modes if modes is None else modes
        key = (t, code, given, modes)
        found = self._afters.get(key)
        if found is not None:
            return found
        found = []
        unit = self.hits
        for share, mode in modes:
            outcomes = self._phase(t, code, given, mode)
            won = share * sum(p for p, t1, _ in outcomes if t1 <= 0)
            offs = [
                (share * p, (t1 * self.ally_cells + c) * unit) for p, t1, c in outcomes if t1 > 0
            ]
            found.append((won, offs))
        self._afters[key] = found
        return found

    def _value(self, mids, h: int, code: int, modes=None) -> float:
        """The value of one choice: its hero-part outcomes ``mids`` (chance, LUCK, STAMINA,
        enemies' STAMINA, first hit to come, the wound an ally took), each followed by the
        allies' part (in ``modes``, None: the fight's)."""
        values = self.values
        sl, sh = self.stride_luck, self.stride_hero
        total = 0.0
        for p, l2, h2, t2, u2, g in mids:
            if h2 <= 0:
                continue  # the hero falls at once
            if t2 <= 0:
                total += p
                continue
            row = l2 * sl + h2 * sh + u2
            for won, offs in self._after(t2, code, g, modes):
                total += p * (won + sum(q * values[row + off] for q, off in offs))
        return total

    def _collect(self, mids, h: int, code: int, outs: list, wins: list, modes=None) -> None:
        """The moves of one choice: (chance, state index) and (chance, STAMINA, LUCK) won."""
        sl, sh = self.stride_luck, self.stride_hero
        for p, l2, h2, t2, u2, g in mids:
            if h2 <= 0:
                continue
            if t2 <= 0:
                wins.append((p, h2, l2))
                continue
            row = l2 * sl + h2 * sh + u2
            for won, offs in self._after(t2, code, g, modes):
                if won:
                    wins.append((p * won, h2, l2))
                outs.extend((p * q, row + off) for q, off in offs)

    def _shields(self, code: int) -> bool:
        """Whether an ally stands to take the enemy's wound (allies ``code``)."""
        return self.tracked and any(a > 0 for a in self._decode(code))

    def _wounded(self, li: int, h: int, t: int, code: int, unhit: int, p: float, luck: int,
                 low: int, q: float) -> list[tuple]:  # fmt: skip
        """The enemy's wound of the hero's part, per whom the enemies strike (see
        :func:`dedale.rules.odds_allies_luck.wounded`)."""
        return wounded(self, li, h, t, code, unhit, p, luck, low, q)

    def _moves(self, li: int, h: int, t: int, code: int, unhit: int, first: bool, collect=False):
        """(value of the state's moves with the best choices, leaving out its chance to
        stay; that chance; with ``collect``, the moves and wins of those choices)."""
        base, fight = self.base, self.fight
        i, e = self.index[t], self.current[t]
        chances = base.params[i]
        luck = li if base.use_luck else 0
        low = max(0, li - base.luck_cost)
        q = base.p_lucky(luck) if luck > 0 else 0.0
        still = (li, h, t, unhit, 0)
        # per outcome of the hero's part: (the modes it is followed by, its choices)
        groups: list[tuple] = []
        if chances.p_kill:
            groups.append((None, [[(chances.p_kill, li, h, t - e, unhit, 0)]]))
        if chances.p_hero:
            d = base.to_enemy + (base.first_hit_bonus if unhit else 0)
            p = chances.p_hero
            choices = [[(p, li, h, t - min(d, e), 0, 0)]]
            table = fight.luck_wounding
            if base.use_luck and luck > 0 and table is not None:
                dealt = fight.damage_to_enemy
                lucky = max(0, d + table.lucky - dealt)
                unlucky = max(0, d + table.unlucky - dealt)
                if min(lucky, unlucky) < e:  # offered unless the wound kills whatever Luck
                    choices.append([(p * q, low, h, t - min(lucky, e), 0, 0),
                                    (p * (1 - q), low, h, t - min(unlucky, e), 0, 0)])  # fmt: skip
            groups.append((None, choices))
        if chances.p_enemy:
            p = chances.p_enemy
            if (first and base.armour) or base.to_hero <= 0:
                groups.append((None, [[(p, li, h, t, unhit, 0)]]))
            else:
                groups.extend(self._wounded(li, h, t, code, unhit, p, luck, low, q))
        if chances.p_tie:
            groups.append((None, [[(chances.p_tie, li, h, t, unhit, 0)]]))
        own_off = (t * self.ally_cells + code) * self.hits
        total = stay = 0.0
        outs: list = []
        wins: list = []
        for modes, choices in groups:
            chosen, value = choices[0], None
            if len(choices) > 1:  # a wound: test Luck only when it is strictly better
                value = self._value(chosen, h, code, modes)
                for other in choices[1:]:
                    tried = self._value(other, h, code, modes)
                    if luck_gains(tried, value):
                        chosen, value = other, tried
            if collect:
                self._collect(chosen, h, code, outs, wins, modes)
                continue
            total += self._value(chosen, h, code, modes) if value is None else value
            if not first:  # the chance of this very state again (ties all round)
                for p, *rest in chosen:
                    if tuple(rest) == still:
                        for _, offs in self._after(t, code, 0, modes):
                            stay += p * sum(q2 for q2, off in offs if off == own_off)
        if collect:
            own = -1 if first else self._idx(li, h, t, code, unhit)
            stay = sum(p for p, j in outs if j == own)
            outs = [x for x in outs if x[1] != own]
        return total, stay, outs, wins

    # ------------------------------------------------------------------ solve

    def solve(
        self,
        hero_stamina: int,
        luck: int | None,
        *,
        win_only: bool = False,
        max_states: int | None = None,
        seconds: float | None = None,
    ) -> OddsResult:
        """The exact odds from the start (see :func:`ally_odds`); a table already filled
        for as much STAMINA and LUCK answers at once (its values do not depend on the start)."""
        if hero_stamina <= 0:
            raise GameError(tr("the hero needs at least 1 STAMINA to fight"))
        li0 = max(0, luck) if luck is not None and self.base.use_luck else 0
        if self.values is None or hero_stamina > self.h0 or li0 > self.luck0:
            limit = MAX_STATES if max_states is None else max_states
            cpu = SECONDS if seconds is None else seconds
            self._fill(max(hero_stamina, self.h0), max(li0, self.luck0), limit, cpu)
        code0 = self._code([a for _, a in self.allies]) if self.tracked else 0
        unhit0 = 1 if self.hits == 2 else 0
        start = (li0, hero_stamina, self.total, code0, unhit0)
        first = bool(self.base.armour)
        if first:  # armour on the first assault: that state is apart from the table
            total, _, _, _ = self._moves(*start, first)
            win = total
        else:
            win = self.values[self._idx(*start)]
        if win_only:
            return OddsResult(win, float("nan"), {}, {}, states=self.cells)
        return self._forward(start, first, win, luck)

    def _fill(self, hero_stamina: int, luck: int, max_states: int, seconds: float) -> None:
        """The value of every state up to this STAMINA and LUCK, in lexicographic order."""
        self._shape(hero_stamina, luck)
        if self.cells > max_states:
            self.values = None
            raise _too_large(self.cells, max_states)
        self._flows = {}
        if self.lucks > 1 and VECTOR:  # best Luck: a vector over LUCK per position
            from dedale.rules.odds_allies_fill import fill_by_luck

            if fill_by_luck(self, seconds, _too_slow):
                return
        self.values = values = [0.0] * self.cells
        start_cpu = time.process_time()
        count = 0
        for li in range(self.lucks):
            for h in range(1, self.h0 + 1):
                for t in range(1, self.total + 1):
                    for code in range(self.ally_cells):
                        for unhit in range(self.hits):
                            total, stay, _, _ = self._moves(li, h, t, code, unhit, False)
                            values[self._idx(li, h, t, code, unhit)] = (
                                total / (1.0 - stay) if stay < 1.0 else 0.0
                            )
                count += self.total * self.ally_cells * self.hits
                if time.process_time() - start_cpu > seconds:
                    self.values = None
                    raise _too_slow(seconds, count)

    def _forward(self, start, first: bool, win: float, luck: int | None) -> OddsResult:
        from dedale.rules.odds_allies_forward import forward

        return forward(self, start, first, win, luck)

    # ------------------------------------------------------------------ the best Luck

    def tests_luck(
        self, wound: str, damage: int, luck: int, h: int, enemy_index: int, enemy: int,
        allies: Sequence[int], unhit: bool,
    ) -> bool:  # fmt: skip
        """Whether the best policy tests Luck on this wound (see
        :func:`dedale.rules.odds_allies_luck.tests_luck`)."""
        return tests_luck(self, wound, damage, luck, h, enemy_index, enemy, allies, unhit)
