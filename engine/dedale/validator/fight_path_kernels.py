"""The fights of the path of fights, for :class:`~dedale.validator.fight_path_chain.HeroChain`:
the kernel of each fight (the chance to win from a (STAMINA, LUCK) and the joint states a
win leaves, from the exact DP's tables, one per fight setting), the distribution alive
after a fight from a whole distribution at once (:mod:`dedale.validator.fight_path_mix`),
and the same with doses of the book's potion held
(:mod:`dedale.validator.fight_path_potion_fight`)."""

from __future__ import annotations

from dedale import ast
from dedale.errors import DedaleError
from dedale.i18n import Message, tr
from dedale.validator.fight_path_mix import one_start
from dedale.validator.fight_plan import needs_exits
from dedale.validator.fights import EXACT_MODES
from dedale.validator.fights_allies import SECONDS as ALLY_SECONDS
from dedale.validator.fights_allies import allies_of, exact_allies

Dist = dict[tuple[int, int, int, int], float]


class FightKernels:
    """The fight half of HeroChain (its attributes are set by HeroChain.__init__)."""

    def kernel(self, fight: ast.Fight, held: frozenset[str], s: int, luck: int):
        """(win chance, ((STAMINA, LUCK), chance) after a win, reason it is ≈ or None)."""
        setting = self.settings.get((id(fight), held))
        if setting is None:
            setting = self.settings[(id(fight), held)] = self._setting(fight, held)
        key = (setting, s, luck)  # fights of the same setting share their kernels
        found = self.kernels.get(key)
        if found is None:
            found = self.kernels[key] = self._kernel(fight, held, s, luck)
        return found

    def _setting(self, fight: ast.Fight, held: frozenset[str]) -> tuple:
        """What the fight's exact odds depend on (a fight with no exact odds: itself)."""
        if self._inexact(fight) is not None:
            return ("fight", id(fight))
        try:
            return self._table_key(fight, held)
        except (DedaleError, ValueError, KeyError):
            return ("fight", id(fight))

    def _kernel(self, fight: ast.Fight, held, s: int, luck: int):
        why = self._inexact(fight)
        if why is None:
            try:
                table = self._table(fight, held)
                if hasattr(table, "_start"):  # the fast pass, the same figures as solve
                    win, end_states = one_start(table, s, luck if self.luck_stat else None)
                else:
                    result = table.solve(s, luck if self.luck_stat else None)
                    win, end_states = result.win_probability, result.end_states
            except (DedaleError, ValueError, KeyError, ArithmeticError) as error:
                why = tr("no exact odds ({reason})", reason=_reason(error))
            else:
                ends = tuple(((h, lk if self.luck_stat else luck), p)
                             for (h, lk), p in end_states.items())  # fmt: skip
                return win, ends, None
        return self._estimated(fight, s, luck, why)

    def _estimated(self, fight: ast.Fight, s: int, luck, why: Message):
        """The fight table's chance to leave the fight alive (this hero's row, his policy),
        the state left unchanged, and ``why`` it is ≈ (the d20 and reliques chains' too)."""
        report = self.reports.get(fight.span)
        win = None if report is None else report.win(self.hero.level, self.policy,
                                                     self.hero.class_name)  # fmt: skip
        if win is None and report is not None:
            win = report.best_win(self.hero.level, self.hero.class_name)
        if win is None:
            return 1.0, (((s, luck), 1.0),), tr("a fight with no odds")
        return win, (((s, luck), 1.0),), why

    def _inexact(self, fight: ast.Fight) -> Message | None:
        """Why the chain cannot follow this fight's wounds exactly (None: it can)."""
        if self.skill is None or self.init_health <= 0:
            return tr("the ruleset's heroes have no fixed attack or health roll")
        if fight.mode not in EXACT_MODES or not exact_allies(fight):
            return tr("an estimated fight (its wounds are not carried on)")
        if needs_exits(fight) or fight.attack_stat is not None:
            return tr("a fight with exits (its wounds are not carried on)")
        return None

    def _table_key(self, fight: ast.Fight, held: frozenset[str]) -> tuple:
        enemies = self.calculator._enemies(fight)
        if any(not isinstance(v, int) for e in enemies for v in e[:2]):
            raise ValueError(tr("enemy stats rolled with dice"))
        bonus = fight.attack_bonus + sum(modifier.value for modifier in fight.modifiers)
        if self.shifts is not None:
            bonus += self.shifts(held, self.hero.class_name, self.calculator.params.attack_stat)
        mode = "sequence" if fight.mode == "single" else fight.mode
        if fight.allies:  # their stats and whom the enemies strike (validator/fights_allies)
            allies = allies_of(self.calculator, fight)
            return (enemies, mode, bonus, fight.enemy_damage, allies, fight.struck)
        return (enemies, mode, bonus, fight.enemy_damage)

    def _table(self, fight: ast.Fight, held: frozenset[str]):
        from dedale.rules.odds import OddsTable

        key = self.settings.get((id(fight), held))  # the setting is the table's key
        if key is None or key[0] == "fight":
            key = self._table_key(fight, held)
        enemies, mode, bonus = key[:3]
        table = self.tables.get(key)
        if table is None and len(key) > 4:  # with allies: rules/odds_allies.py, its budget
            from dedale.rules.odds_allies import shared_table

            table = shared_table(
                self.ruleset, self.skill, list(enemies), key[4], struck=key[5],
                luck_policy=self.policy, class_name=self.hero.class_name, mode=mode,
                attack_bonus=bonus, enemy_damage=fight.enemy_damage,
            )  # fmt: skip
            table.solve(max(1, self.init_health), self.init_luck if self.luck_stat else None,
                        win_only=True, seconds=ALLY_SECONDS)  # fmt: skip
            self.tables[key] = table
        elif table is None and mode == "together":  # all at once: the group DP, best target
            from dedale.rules.odds_group import GroupTable

            # best Luck too: the array table (rules/odds_group_fast.py) within its own
            # size and time bounds; past them OddsTooLarge makes the step estimated
            table = GroupTable(
                self.ruleset, self.skill, list(enemies), luck_policy=self.policy,
                class_name=self.hero.class_name, attack_bonus=bonus,
                enemy_damage=fight.enemy_damage,
            )  # fmt: skip
            table.solve(max(1, self.init_health), self.init_luck if self.luck_stat else None)
            self.tables[key] = table
        elif table is None:
            table = OddsTable(
                self.ruleset, self.skill, list(enemies), luck_policy=self.policy,
                class_name=self.hero.class_name, mode=mode, attack_bonus=bonus,
                enemy_damage=fight.enemy_damage,
            )  # fmt: skip
            # the grids for the hero's initial STAMINA and LUCK (a forward pass would be
            # thrown away: the passes run from the states the chain reaches)
            table._start(max(1, self.init_health), self.init_luck if self.luck_stat else None,
                         table.enemies[0][1])  # fmt: skip
            self.tables[key] = table
        return table

    def fight_after(self, fight: ast.Fight, held: frozenset[str], dist: Dist) -> Dist | None:
        """The distribution alive after a fight the exact DP follows, by one seeded forward
        pass per number of meals (None: no exact odds, see :meth:`moves`)."""
        if self._inexact(fight) is not None:
            return None
        setting = self.settings.get((id(fight), held))
        if setting is None:
            setting = self.settings[(id(fight), held)] = self._setting(fight, held)
        key = (setting, self.frozen(dist))
        if key in self.after:  # the same fight from the same distribution (another edge)
            found = self.after[key]
            return None if found is None else dict(found)
        found = self.after[key] = self._fight_after(fight, held, dist)
        return None if found is None else dict(found)

    def _fight_after(self, fight: ast.Fight, held: frozenset[str], dist: Dist) -> Dist | None:
        from dedale.validator.fight_path_mix import mixed_ends

        try:
            table = self._table(fight, held)
        except (DedaleError, ValueError, KeyError, ArithmeticError):
            return None
        by_rest: dict[tuple[int, int], dict[tuple[int, int], float]] = {}
        for (h, luck, m, d), p in dist.items():
            group = by_rest.setdefault((m, d), {})
            group[(h, luck)] = group.get((h, luck), 0.0) + p
        new: Dist = {}
        dosed: dict[tuple[int, int | None], dict[tuple[int, int, int], float]] = {}
        for (m, d), starts in by_rest.items():
            if d > 0 and self.potion is not None:  # the potion may act in the fight
                for (h, luck), p in starts.items():
                    kept = None if self.luck_stat and getattr(table, "use_luck", False) else luck
                    group = dosed.setdefault((m, kept), {})
                    group[(h, luck, d)] = group.get((h, luck, d), 0.0) + p
                continue
            try:
                ends = mixed_ends(table, starts, bool(self.luck_stat))
            except (DedaleError, ValueError, KeyError, ArithmeticError):
                return None  # too many states from some start: each state alone says why
            for (h, luck), p in ends.items():
                new[(h, luck, m, d)] = new.get((h, luck, m, d), 0.0) + p
        for (m, kept), starts in dosed.items():
            ends = self._dosed_mixed(fight, held, table, starts)
            if ends is None:
                return None  # each state alone says why
            for (h, luck, left), p in ends.items():
                key = (h, luck if kept is None else kept, m, left)
                new[key] = new.get(key, 0.0) + p
        return new

    def _dosed_mixed(self, fight: ast.Fight, held, table, starts) -> dict | None:
        """The end states of a win from weighted (STAMINA, LUCK, doses) starts, in one pass
        of the potion's fight (None: not followed exactly; :meth:`dosed` says why)."""
        from dedale.validator.fight_path_potion_fight import PotionFight

        if not hasattr(table, "_start") or self._inexact(fight) is not None:
            return None
        solver = self.potion_fights.get(id(table))
        if solver is None:
            solver = PotionFight(table, self.potion, self.init_health)
            self.potion_fights[id(table)] = solver
        luck_of = bool(self.luck_stat)
        try:
            ends, _ = solver.mixed(
                {(h, lk if luck_of else None, d): p for (h, lk, d), p in starts.items()}
            )
        except (DedaleError, ValueError, KeyError, ArithmeticError):
            return None
        return ends

    def dosed(self, fight: ast.Fight, held: frozenset[str], s: int, luck: int, d: int):
        """(win chance, ((STAMINA, LUCK, doses), chance alive after a win: they sum to the
        win chance), reason it is ≈ or None) for a hero holding ``d`` doses of the potion."""
        setting = self.settings.get((id(fight), held))
        if setting is None:
            setting = self.settings[(id(fight), held)] = self._setting(fight, held)
        key = ("dosed", setting, s, luck, d)
        found = self.kernels.get(key)
        if found is None:
            found = self.kernels[key] = self._dosed(fight, held, s, luck, d)
        return found

    def _dosed(self, fight: ast.Fight, held, s: int, luck: int, d: int):
        from dedale.validator.fight_path_potion_fight import PotionFight

        win, ends, why = self.kernel(fight, held, s, luck)
        estimate = (win, tuple(((h, lk, d), win * p) for (h, lk), p in ends), why)
        if why is not None:
            return estimate
        table = self._table(fight, held)
        if not hasattr(table, "_start"):  # a fight at once: fight_path_group_potion.py
            found = self.dosed_at_once(fight, held, s, luck, d)
            return (*estimate[:2], found) if isinstance(found, Message | str) else found
        solver = self.potion_fights.get(id(table))
        if solver is None:
            solver = self.potion_fights[id(table)] = PotionFight(
                table, self.potion, self.init_health
            )
        try:
            win, found = solver.solve(s, luck if self.luck_stat else None, d)
        except (DedaleError, ValueError, KeyError, ArithmeticError) as error:
            why = tr("no exact odds ({reason})", reason=_reason(error))
            return (*estimate[:2], why)
        ends = tuple(
            ((h, lk if self.luck_stat and table.use_luck else luck, left), p)
            for (h, lk, left), p in found.items()
            if p
        )
        return win, ends, None


def _reason(error: Exception) -> Message | str:
    from dedale.validator.fight_path_reasons import error_reason

    return error_reason(error)  # its Message (the reader's language), not its English
