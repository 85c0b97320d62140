"""The statement handlers of the interpreter: values, items, codewords, Worlds, endings,
tests, dice tables and fights (a mixin of :class:`dedale.game.runner.Runner`).

Each handler is a generator: it yields events (unless quiet) and the rules core's prompts,
and returns None to go on, a paragraph number to jump to, or ``END``.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from dedale import ast, events
from dedale.errors import GameError
from dedale.game import playtest, test_forms
from dedale.game.cache import folded
from dedale.game.conditions import compare
from dedale.game.expressions import evaluate
from dedale.game.triggers import item_triggers
from dedale.rules import BookItem, run_d20_test, run_duo_test, run_fight, run_test
from dedale.rules.fights import EnemyRoll, EnemySpec, FightSpec, roll_enemies, roll_enemy
from dedale.rules.heroism import offer_ignore_loss

Gen = Generator[Any, Any, Any]


class _End:
    """Flow marker: the game is over."""


END = _End()


class Statements:
    """Handlers for every directive of a paragraph (see the module docstring)."""

    def _change(self, statement: ast.ChangeValue) -> Gen:
        kind, ident = self.resolve(statement.name, statement.span, ("stat", "counter"))
        hero = self.state.hero
        amount = 0
        if statement.amount is not None:
            amount = yield from self._amount(statement.amount)
        op = statement.op
        if kind == "counter":
            old = hero.counters.get(ident, 0)
            if op == "add":
                hero.change_counter(ident, amount)
            elif op == "sub":
                hero.change_counter(ident, -amount)
            elif op == "set":
                hero.counters[ident] = max(0, amount)
            else:  # restore / raise / lower initial: back to (or off) the starting value
                start = next((c.initial for c in self.ruleset.counters if c.id == ident), 0)
                shift = {"raise_initial": amount, "lower_initial": -amount}.get(op, 0)
                hero.counters[ident] = max(0, start + shift)
            capped = self._cap_counter(ident)
            new = hero.counters.get(ident, 0)
            if self.emit and new != old:
                yield events.StatChanged(name=ident, old=old, new=new, initial=new, who="counter")
            if capped and self.emit:
                yield self._cap_message(ident)
            return None
        exceptional = statement.exceptional
        if op == "add":
            old, new = hero.change(ident, amount, exceptional=exceptional)
        elif op == "sub":
            if (yield from offer_ignore_loss(self.ruleset, hero, ident, amount)):
                return None  # a heroism point cancelled the loss
            old, new = hero.change(ident, -amount)
        elif op == "set":
            old, new = hero.set(ident, amount, exceptional=exceptional)
        elif op == "restore":
            old, new = hero.restore(ident)
        elif op == "lower_initial":  # the current value is capped by the ruleset's rules
            old, new = hero.lower_initial(ident, amount)
        else:  # raise_initial: the initial value moves, the current value with it
            hero.raise_initial(ident, amount)
            old, new = hero.change(ident, amount)
        if self.emit:
            yield events.StatChanged(name=ident, old=old, new=new, initial=hero.initial[ident])
        return None

    def _amount(self, expr: ast.Expr) -> Gen:
        if type(expr) is ast.Num:
            return expr.value
        self._rolls.clear()
        value = evaluate(expr, self)
        yield from tuple(self._rolls)
        return value

    def _gain(self, statement: ast.GainItem) -> Gen:
        hero = self.state.hero
        key = self.item_key(statement.item)
        info = None
        if statement.weapon or statement.effects:
            bonuses = tuple(
                (self.resolve(e.stat, e.span, ("stat",))[1], e.amount, e.tag)
                for e in statement.effects
                if e.stat is not None
            )
            weapon = statement.weapon
            triggers = item_triggers(self, statement.effects)
            tags = tuple(e.tag for e in statement.effects if e.tag is not None and e.stat is None)
            info = BookItem(weapon=weapon, bonuses=bonuses, tags=tags, triggers=triggers)
            if triggers:
                self.watch_triggers = True  # the runner now checks them after each line
        hero.gain(key, statement.count, info)
        for effect in statement.effects:  # "take Brass Key (number 50)"
            if effect.number is not None:
                self.state.item_numbers[folded(key)] = effect.number
        if self.emit:
            yield events.ItemGained(item=key, count=statement.count)
        limit = self.ruleset.inventory_limit
        while limit is not None and hero.limited_count(self.ruleset) > limit:
            items = tuple(hero.limited_items(self.ruleset))  # exempt items are not offered
            dropped = yield events.DropItemPrompt(items=items, limit=limit)
            hero.lose(dropped, 1)
            if self.emit:
                yield events.ItemLost(item=dropped, count=1)

    def _lose(self, statement: ast.LoseItem) -> Gen:
        key = self.item_key(statement.item)
        removed = self.state.hero.lose(key, statement.count)
        if removed and self.emit:
            yield events.ItemLost(item=key, count=removed)

    def _codeword(self, statement: ast.SetCodeword | ast.ClearCodeword) -> Gen:
        words = self.state.codewords
        key = folded(statement.codeword)
        is_set = type(statement) is ast.SetCodeword
        changed = (key in words) != is_set
        if is_set:
            words[key] = statement.codeword
        else:
            words.pop(key, None)
        if changed and self.emit:
            yield events.CodewordChanged(codeword=statement.codeword, is_set=is_set)

    def _world(self, statement: ast.OpenWorld) -> Gen:
        if not self.state.world_visited(statement.world):
            self.state.worlds.append(statement.world)
            if self.emit:
                yield events.WorldEntered(world=statement.world)

    def _ending(self, statement: ast.Ending) -> Gen:
        if statement.kind == "victory":
            self.state.outcome = "victory"
            if self.emit:
                yield events.Victory()
            return END
        yield from self._die("ending")
        return END

    def _die(self, reason: str) -> Gen:
        self.state.outcome = "death"
        self.state.death_reason = reason
        if self.emit:
            yield events.Death(reason=reason)

    def _test(self, statement: ast.Test | ast.DuoTest | ast.D20Test) -> Gen:
        """A test line and its branches (optional, repeated: see dedale.game.test_forms)."""
        return (yield from test_forms.run_test_line(self, statement))

    def _test_roll(self, statement: ast.Test | ast.DuoTest | ast.D20Test) -> Gen:
        """Throw the test's dice once; return (outcome, margin)."""
        ruleset, hero, rng, emit = self.ruleset, self.state.hero, self.rng, self.emit
        kind = type(statement)
        modifiers = test_forms.active_modifiers(statement.modifiers, self)
        yield from test_forms.show_conditional(self, modifiers)
        if kind is ast.Test and statement.against is not None:  # "roll 2d6 against 2d6"
            gen = test_forms.compare_rolls(self, statement)
        elif kind is ast.Test and statement.dice is not None:  # "roll 4d6 against STAMINA"
            gen = test_forms.dice_test(self, statement)
        elif kind is ast.Test:
            test = self.test_id(statement.name, statement.span)
            gen = run_test(ruleset, hero, rng, test, modifiers, emit=emit)
        elif kind is ast.DuoTest:
            stats = tuple(self.resolve(s, statement.span, ("stat",))[1] for s in statement.stats)
            gen = run_duo_test(
                ruleset, hero, rng, stats, statement.difficulty, modifiers,
                risk_allowed=statement.risk_allowed, kind=statement.kind, emit=emit,
            )  # fmt: skip
        else:
            stat = self.resolve(statement.stat, statement.span, ("stat",))[1]
            gen = run_d20_test(
                ruleset, hero, rng, stat, statement.difficulty, action=statement.action,
                trained=True if statement.trained else None,
                advantage=statement.advantage, modifiers=modifiers, emit=emit,
            )  # fmt: skip
        try:
            result = yield from gen
        except GameError as error:
            raise _located(error, statement.span) from None
        self.last_dice = result.dice_total
        return result.outcome, result.margin

    def _pick_test_branch(self, statement, outcome: str, margin: int) -> ast.Branch | None:
        return _pick_branch(statement.branches, outcome, margin, self)

    def last_roll(self, span=None) -> int:
        """``ROLL`` / ``TIRAGE``: the total of the last roll of the paragraph."""
        return test_forms.last_roll(self, span)

    def _roll_table(self, statement: ast.RandomRoll) -> Gen:
        expr = self._parsed(statement.dice.text, statement.dice.span)
        total, faces = expr.roll(self.rng)
        self.last_dice = total
        if self.emit:
            yield events.DiceRolled(
                purpose="table", faces=tuple(faces), total=total, expression=expr.text
            )
        for branch in statement.branches:
            if branch.low <= total <= branch.high:
                return (yield from self._block(branch.body))
        return None

    def _fight(self, statement: ast.Fight) -> Gen:
        spec = self._cache.fights.get(id(statement))
        if spec is None:
            spec = self._cache.fights[id(statement)] = self._fight_spec(statement)
        self.state.in_fight = True
        jump = None
        try:
            spec = yield from self._roll_enemies(spec)
            oracle = getattr(self.game, "fight_oracle", None)  # dedale.solve: exact outcomes
            if oracle is not None:
                result = oracle(self, statement, spec)
                if type(result) is tuple:  # a rule of the fight turned to a paragraph
                    result, jump = result
            elif self._by_assault(statement):
                result, jump = yield from self._fight_by_assault(statement, spec)
            else:
                result = yield from run_fight(
                    self._fight_ruleset(statement), self.state.hero, self.rng, spec, emit=self.emit
                )
        except GameError as error:
            raise _located(error, statement.span) from None
        finally:
            self.state.in_fight = False
        if jump is END:  # a row of the fight's assault table ended the game
            return END
        outcome = result.outcome
        if self.health is not None and self.state.hero.stats.get(self.health, 1) <= 0:
            if statement.lose is not None:  # "> lose -> 51": beaten, not killed
                yield from self._beaten()
                return self.destination(statement.lose, required=True)
            if not self.god_mode:
                return None  # _block reports the death
            yield from playtest.spare(self)  # playtest: a fight the hero loses counts as won
            outcome = "won"
        if jump is not None:  # "when STAMINA falls to N", "win N assaults"
            return jump
        if outcome == "won":
            return None if statement.win is None else self.destination(statement.win, required=True)
        if outcome == "escaped" and statement.escape is not None:
            return self.destination(statement.escape.target, required=True)
        if outcome == "limit" and statement.assault_limit is not None:
            return self.destination(statement.assault_limit.target, required=True)
        if statement.lose is not None:
            return self.destination(statement.lose, required=True)
        yield from self._die("fight")
        return END

    def _beaten(self) -> Gen:
        """A fight lost with a ``lose ->`` paragraph: the hero survives the defeat with 1
        point of health (0 is death anywhere, docs/language.md § 13)."""
        hero = self.state.hero
        old, new = hero.set(self.health, 1)
        if self.emit:
            yield events.MessageShown(key="beaten_alive", params=())
            yield events.StatChanged(
                name=self.health, old=old, new=new, initial=hero.initial[self.health]
            )

    def _fight_spec(self, statement: ast.Fight) -> FightSpec:
        limit = statement.assault_limit
        try:
            return FightSpec(
                enemies=tuple(self._enemy(e) for e in statement.enemies),
                mode=statement.mode,
                escape_after=None if statement.escape is None else (statement.escape.after or 0),
                assault_limit=None if limit is None else limit.assaults,
                attack_bonus=statement.attack_bonus,
                enemy_damage=statement.enemy_damage,
                modifiers=statement.modifiers,
            )
        except GameError as error:
            raise _located(error, statement.span) from None

    def _enemy(self, enemy: ast.Enemy) -> EnemySpec:
        """The enemy as the rules core takes it: a value written as dice under a stat of the
        ruleset (``SKILL 2d6``) is rolled when the fight starts; under another key
        (``damage 1d6``) it is the enemy's weapon."""
        stats: dict[str, int] = {}
        dice: list[tuple[str, Any]] = []
        weapon = None
        for written, value in enemy.stats:
            found = self._lookup(written)
            is_stat = found is not None and found[0] == "stat"
            key = found[1] if is_stat else folded(written)
            if isinstance(value, str):
                if is_stat:
                    dice.append((key, self._parsed(value, enemy.span)))
                    stats.pop(key, None)
                else:
                    weapon = value
            else:
                stats[key] = value
                dice = [pair for pair in dice if pair[0] != key]
        return EnemySpec(enemy.name, stats, enemy.immune_instant_kill, weapon, tuple(dice))

    def _roll_enemies(self, spec: FightSpec) -> Gen:
        """The fight with the enemies' dice stats rolled (shown as dice), at its start."""
        spec, rolls = roll_enemies(spec, self.rng)
        if self.emit:
            yield from _show_enemy_rolls(rolls)
        return spec

    def _roll_fighter(self, fighter: EnemySpec) -> Gen:
        """An ally (or enemy) with its dice stats rolled, shown as dice."""
        rolls: list[EnemyRoll] = []
        fighter = roll_enemy(fighter, self.rng, rolls)
        if self.emit:
            yield from _show_enemy_rolls(rolls)
        return fighter


def _show_enemy_rolls(rolls) -> Gen:
    for roll in rolls:
        yield events.DiceRolled(
            purpose=roll.stat,
            faces=roll.faces,
            total=roll.value,
            expression=roll.expression,
            who=roll.enemy,
        )


def _pick_branch(branches, outcome: str, margin: int, scope) -> ast.Branch | None:
    """The first branch matching the outcome (a critical falls back to its plain branch)."""
    for wanted in (outcome, outcome.removeprefix("critical_")):
        for branch in branches:
            if branch.outcome != wanted:
                continue
            if branch.margin is not None:
                limit = evaluate(branch.margin.right, scope)
                if not compare(branch.margin.op, margin, limit):
                    continue
            return branch
        if wanted == outcome.removeprefix("critical_"):
            break
    return None


def _located(error: GameError, span) -> GameError:
    if error.span is None:
        error.span = span
    return error
