"""The paragraph executor: a generator that runs the book against the rules core.

:class:`Runner.run` yields events and prompts (see dedale.events) and receives answers
through ``send()``; :class:`dedale.game.Game` wraps it in the pull API. Every statement of
the AST has a handler here; the rules core's generators are ``yield from``-ed, so their
dice, assaults and prompts flow through unchanged. With ``quiet=True`` (the random tester,
benchmarks) no event is built — prompts are still asked — and the code path is the same.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from dedale import ast, events
from dedale.errors import GameError
from dedale.game.cache import cache_for, folded
from dedale.game.choices import Offered, offer
from dedale.game.conditions import compare, holds
from dedale.game.expressions import evaluate, interpolate
from dedale.game.state import GameState, HistoryEntry
from dedale.i18n import message
from dedale.rules import (
    BookItem,
    RandomSource,
    Ruleset,
    create_character,
    parse_dice,
    run_d20_test,
    run_duo_test,
    run_fight,
    run_test,
)
from dedale.rules.fights import EnemySpec, FightSpec

EAT = object()
"""Sent into the runner at a ChoosePrompt: the reader eats a meal (then the prompt is re-asked)."""

Gen = Generator[Any, Any, Any]


class _End:
    """Flow marker: the game is over."""


END = _End()


class Runner:
    """Executes a Book for one game; holds no state of its own beyond the paragraph's."""

    def __init__(self, game) -> None:
        self.game = game
        self.book = game.book
        self.ruleset: Ruleset = game.book.ruleset
        self.rng: RandomSource = game.rng
        self.state: GameState = game.state
        self.emit = not game.quiet
        self.lang = game.lang
        fight = self.ruleset.fight
        self.health = getattr(fight, "health", None)
        cache = self._cache = cache_for(game.book)
        self._paragraphs = game.book.paragraphs
        meals = self.ruleset.meals
        self._meals_anywhere = bool(meals and meals.anywhere)
        self._names = cache.names
        self._worlds_of = cache.worlds_of
        self._dice = cache.dice
        self._rolls: list[events.DiceRolled] = []
        self._choices: list[ast.Choice] = []
        self._revisit = False
        self._resume = False
        self._text: list[ast.Prose] = []
        self._held: list[events.Event] = []
        self._handlers = {
            ast.ChangeValue: self._change,
            ast.GainItem: self._gain,
            ast.LoseItem: self._lose,
            ast.SetCodeword: self._codeword,
            ast.ClearCodeword: self._codeword,
            ast.OpenWorld: self._world,
            ast.Ending: self._ending,
            ast.Test: self._test,
            ast.DuoTest: self._test,
            ast.D20Test: self._test,
            ast.RandomRoll: self._roll_table,
            ast.Fight: self._fight,
        }

    # ================================================================== the game loop

    def run(self) -> Gen:
        """The whole game: creation, then paragraph after paragraph until an ending."""
        state = self.state
        if state.hero is None:
            yield from self._create()
            number = self.book.start
            resume = False
        else:  # resuming from a snapshot (a save whose book was edited)
            number = state.paragraph
            resume = True
        while number is not None:
            number = yield from self._paragraph(number, resume)
            resume = False

    def _create(self) -> Gen:
        creation = self.game.creation
        ruleset = self.ruleset
        class_name = creation.get("class")
        if class_name is None and ruleset.classes:
            class_name = yield events.ClassPrompt(classes=tuple(ruleset.classes))
        if class_name is not None:
            class_name = self.class_id(class_name)
        fixed = None
        if creation.get("hero"):
            ids = [stat.id for stat in ruleset.stats]
            fixed = dict(zip(ids, creation["hero"], strict=False))
        hero = create_character(ruleset, self.rng, class_name, fixed)
        name = creation.get("name")
        if name is None:
            name = yield events.NamePrompt(default=message(self.lang, "hero.default_name"))
        self.state.hero = hero
        self.state.name = str(name)
        if self.emit:
            for stat, value in hero.stats.items():
                yield events.StatChanged(name=stat, old=0, new=value, initial=hero.initial[stat])
            for counter, value in hero.counters.items():
                if value:
                    yield events.StatChanged(
                        name=counter, old=0, new=value, initial=value, who="counter"
                    )
            for item, count in hero.items.items():
                yield events.ItemGained(item=item, count=count)

    def _paragraph(self, number: int, resume: bool = False) -> Gen:
        paragraph = self._paragraphs.get(number)
        if paragraph is None:
            raise GameError(f"there is no paragraph {number} in this book")
        state = self.state
        state.paragraph = number
        if not resume:
            visited = state.visited
            visited[number] = visited.get(number, 0) + 1
        state.history.append(HistoryEntry(number, len(self.game.decisions)))
        state.meal_allowed = self._meals_anywhere
        if self.emit:
            yield events.ParagraphEntered(number=number, label=paragraph.label, span=paragraph.span)
        self._choices = choices = []
        self._revisit = False
        self._resume = resume
        flow = yield from self._block(paragraph.body)
        if resume:
            if flow is None and not choices:
                self._resume = False  # nothing to choose: run the paragraph for real
                self._text = []
                flow = yield from self._block(paragraph.body)
            self._resume = False
        if self._text or self._held:
            yield from self.flush()
        if flow is not None:
            return None if flow is END else flow
        # The reader chooses (the choice prompt is asked again after a meal).
        while True:
            offered, prompt = self._offer(paragraph)
            answer = yield prompt
            if answer is EAT:
                yield from self.eat()
                continue
            taken = offered[answer - 1]
            if taken.choice.costs:
                yield from self._pay(taken.choice.costs)
            target = taken.target
            if target is None or target not in self._paragraphs:
                raise GameError(
                    f"this choice leads to paragraph {target}, which does not exist",
                    taken.choice.span,
                )
            return target

    def _block(self, body: tuple[ast.Statement, ...]) -> Gen:
        """Run statements in order; return None to go on, a paragraph number, or END.

        Prose is interpolated with the values the hero has once the directives that follow
        it (up to the next roll, question or jump) have run, as authors write "your SKILL
        is now {SKILL}" above the directive; the events keep the book's order: the text
        first, then the changes.
        """
        handlers = self._handlers
        for statement in body:
            kind = type(statement)
            if kind is ast.Choice:
                self._choices.append(statement)  # type: ignore[arg-type]
                continue
            if kind is ast.Prose:
                if self.emit:
                    self._text.append(statement)  # type: ignore[arg-type]
                continue
            if kind is ast.AllowRevisit:
                self._revisit = True
                continue
            if kind is ast.MealRule:
                self.state.meal_allowed = statement.allowed  # type: ignore[union-attr]
                continue
            if self._resume:
                if kind is ast.If:
                    branch = (
                        statement.then if holds(statement.condition, self) else statement.otherwise
                    )  # type: ignore[union-attr]
                    yield from self._block(branch)
                continue
            held = self._text and self._is_simple(statement)
            if self._text and not held:
                yield from self.flush()
            if kind is ast.Goto:
                return self.destination(statement.target, required=True)  # type: ignore[union-attr]
            if kind is ast.If:
                flow = yield from self._block(self._if_branch(statement))  # type: ignore[arg-type]
            elif held:
                flow = _exhaust(handlers[kind](statement), self._held)
            else:
                flow = yield from handlers[kind](statement)
            if self.health is not None and self.state.hero.stats.get(self.health, 1) <= 0:
                if flow is not END:
                    yield from self.flush()
                    yield from self._die("health")
                return END
            if flow is not None:
                return flow
        return None

    def _if_branch(self, statement: ast.If) -> tuple[ast.Statement, ...]:
        return statement.then if holds(statement.condition, self) else statement.otherwise

    def _is_simple(self, statement: ast.Statement) -> bool:
        """Whether a statement only changes values (no dice, no question, no jump)."""
        kind = type(statement)
        if kind is ast.ChangeValue:
            return statement.amount is None or type(statement.amount) is ast.Num  # type: ignore[union-attr]
        if kind is ast.GainItem:
            return self.ruleset.inventory_limit is None
        return kind in _SIMPLE

    def flush(self) -> Gen:
        """Show the prose waiting to be shown, then the changes held behind it."""
        texts, held = self._text, self._held
        self._text, self._held = [], []
        for prose in texts:
            yield events.TextShown(text=interpolate(prose.text, self))
        yield from held

    # ================================================================== choices

    def _offer(self, paragraph: ast.Paragraph) -> tuple[list[Offered], events.ChoosePrompt]:
        """The options offered now and their prompt (memoised when they cannot change)."""
        key = (self._revisit, *map(id, self._choices))
        prompts = self._cache.prompts
        cached = prompts.get(key)
        if cached:
            return cached
        offered = offer(self._choices, self, self._revisit)
        if not any(o.option.enabled for o in offered):
            raise GameError(
                f"paragraph {paragraph.number} is a dead end: it offers no choice the "
                "hero can take",
                paragraph.span,
                hint="add a choice, a 'go to', or an ending (death/victory)",
            )
        result = offered, events.ChoosePrompt(options=tuple(o.option for o in offered))
        if key not in prompts:
            prompts[key] = result if self._static(self._choices) else False
        return result

    def _static(self, choices: list[ast.Choice]) -> bool:
        """Whether these choices are offered the same way whatever the game's state."""
        for choice in choices:
            if choice.condition is not None or choice.costs:
                return False
            if type(choice.target) is not ast.ParagraphRef:
                return False
            if self.ruleset.worlds:
                target = self.destination(choice.target)
                if target is None or target not in self.book.paragraphs:
                    return False
                self.closed_world(target)
                if self._worlds_of.get(target) is not None:
                    return False
        return True

    def _pay(self, costs: tuple[ast.Cost, ...]) -> Gen:
        hero = self.state.hero
        for cost in costs:
            if cost.counter is not None:
                counter = self.counter_id(cost.counter, cost.span)
                old, new = hero.change_counter(counter, -cost.amount)
                if self.emit:
                    yield events.StatChanged(
                        name=counter, old=old, new=new, initial=new, who="counter"
                    )
            if cost.item is not None:
                key = self.item_key(cost.item)
                if hero.lose(key, 1) and self.emit:
                    yield events.ItemLost(item=key, count=1)

    def cost_problem(self, costs: tuple[ast.Cost, ...]) -> str:
        """Why the hero cannot pay these costs ("" if he can)."""
        hero = self.state.hero
        for cost in costs:
            if cost.counter is not None:
                counter = self.counter_id(cost.counter, cost.span)
                if hero.counters.get(counter, 0) < cost.amount:
                    name = self.ruleset.display_name(counter, self.lang)
                    return self.text("reason.cost", amount=cost.amount, name=name)
            if cost.item is not None and not hero.items.get(self.item_key(cost.item), 0):
                return self.text("reason.item", item=cost.item)
        return ""

    def closed_world(self, target: int | None) -> str | None:
        """The World ``target`` opens, if the Worlds rule forbids entering it again."""
        if target is None or not self.ruleset.worlds:
            return None
        if target not in self._worlds_of:
            paragraph = self.book.paragraphs.get(target)
            self._worlds_of[target] = _opened_world(paragraph.body) if paragraph else None
        world = self._worlds_of[target]
        if world is not None and self.state.world_visited(world):
            return world
        return None

    # ================================================================== meals

    def can_eat(self) -> bool:
        state = self.state
        if not state.meal_allowed:
            return False
        meals = self.ruleset.meals
        return bool(
            meals
            and state.hero is not None
            and not state.in_fight
            and state.hero.counters.get(meals.counter, 0) > 0
        )

    def eat(self) -> Gen:
        meals = self.ruleset.meals
        if not self.can_eat() or meals is None:
            raise GameError(message(self.lang, "error.cannot_eat"))
        hero = self.state.hero
        old_meals, left = hero.change_counter(meals.counter, -1)
        old, new = hero.change(meals.stat, meals.heal)
        if self.emit:
            yield events.MealEaten(stamina_gained=new - old, meals_left=left)
            yield events.StatChanged(
                name=meals.counter, old=old_meals, new=left, initial=left, who="counter"
            )
            yield events.StatChanged(
                name=meals.stat, old=old, new=new, initial=hero.initial[meals.stat]
            )

    # ================================================================== statements

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
            else:  # restore / raise_initial: back to (or above) the starting value
                start = next((c.initial for c in self.ruleset.counters if c.id == ident), 0)
                hero.counters[ident] = start + (amount if op == "raise_initial" else 0)
            new = hero.counters.get(ident, 0)
            if self.emit and new != old:
                yield events.StatChanged(name=ident, old=old, new=new, initial=new, who="counter")
            return None
        exceptional = statement.exceptional
        if op == "add":
            old, new = hero.change(ident, amount, exceptional=exceptional)
        elif op == "sub":
            old, new = hero.change(ident, -amount)
        elif op == "set":
            old, new = hero.set(ident, amount, exceptional=exceptional)
        elif op == "restore":
            old, new = hero.restore(ident)
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
            info = BookItem(weapon=weapon, bonuses=bonuses)
        hero.gain(key, statement.count, info)
        if self.emit:
            yield events.ItemGained(item=key, count=statement.count)
        limit = self.ruleset.inventory_limit
        while limit is not None and hero.item_count() > limit:
            items = tuple(hero.items)
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
        ruleset, hero, rng, emit = self.ruleset, self.state.hero, self.rng, self.emit
        kind = type(statement)
        if kind is ast.Test:
            test = self.test_id(statement.name, statement.span)
            gen = run_test(ruleset, hero, rng, test, statement.modifiers, emit=emit)
        elif kind is ast.DuoTest:
            stats = tuple(self.resolve(s, statement.span, ("stat",))[1] for s in statement.stats)
            gen = run_duo_test(
                ruleset, hero, rng, stats, statement.difficulty, statement.modifiers,
                risk_allowed=statement.risk_allowed, emit=emit,
            )  # fmt: skip
        else:
            stat = self.resolve(statement.stat, statement.span, ("stat",))[1]
            gen = run_d20_test(
                ruleset, hero, rng, stat, statement.difficulty, action=statement.action,
                advantage=statement.advantage, modifiers=statement.modifiers, emit=emit,
            )  # fmt: skip
        try:
            result = yield from gen
        except GameError as error:
            raise _located(error, statement.span) from None
        branch = _pick_branch(statement.branches, result.outcome, result.margin, self)
        if branch is None:
            return None
        return (yield from self._block(branch.body))

    def _roll_table(self, statement: ast.RandomRoll) -> Gen:
        expr = self._parsed(statement.dice.text, statement.dice.span)
        total, faces = expr.roll(self.rng)
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
        try:
            result = yield from run_fight(
                self.ruleset, self.state.hero, self.rng, spec, emit=self.emit
            )
        except GameError as error:
            raise _located(error, statement.span) from None
        finally:
            self.state.in_fight = False
        outcome = result.outcome
        if self.health is not None and self.state.hero.stats.get(self.health, 1) <= 0:
            return None  # _block reports the death
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
        stats: dict[str, int] = {}
        weapon = None
        for written, value in enemy.stats:
            found = self._lookup(written)
            key = found[1] if found is not None and found[0] == "stat" else folded(written)
            if isinstance(value, str):
                weapon = value
            else:
                stats[key] = value
        return EnemySpec(enemy.name, stats, enemy.immune_instant_kill, weapon)

    # ================================================================== the Scope/World API

    @property
    def paragraph(self) -> int:
        return self.state.paragraph or 0

    def value(self, name: str, initial: bool = False) -> int:
        kind, ident = self.resolve(name, None, ("stat", "counter"))
        hero = self.state.hero
        if kind == "stat":
            return hero.initial[ident] if initial else hero.stats[ident]
        return hero.counters.get(ident, 0)

    def roll(self, text: str, span) -> int:
        expr = self._parsed(text, span)
        total, faces = expr.roll(self.rng, self.value)
        if self.emit:
            self._rolls.append(
                events.DiceRolled(
                    purpose="amount", faces=tuple(faces), total=total, expression=text
                )
            )
        return total

    def word(self, name: str) -> str | None:
        key = folded(name)
        if key in ("name", "nom"):
            return self.state.name
        if key in ("class", "classe"):
            hero = self.state.hero
            if hero is None or hero.class_name is None:
                return ""
            klass = self.ruleset.classes.get(hero.class_name)
            return klass.names.get(self.lang, hero.class_name) if klass else hero.class_name
        return None

    def item_count(self, item: str) -> int:
        return self.state.hero.items.get(self.item_key(item), 0)

    def has_codeword(self, codeword: str) -> bool:
        return self.state.has_codeword(codeword)

    def visited(self, ref: ast.ParagraphRef) -> bool:
        number = self.destination(ref)
        return number is not None and number in self.state.visited

    def world_visited(self, world: str) -> bool:
        return self.state.world_visited(world)

    def has_class(self, name: str) -> bool:
        hero = self.state.hero
        return hero.class_name is not None and self.class_id(name, strict=False) == hero.class_name

    # ================================================================== names and helpers

    def text(self, key: str, **params: Any) -> str:
        return message(self.lang, key, **params)

    def describe_condition(self, condition: ast.Condition) -> str:
        """The reason shown on a disabled choice whose condition is false."""
        kind = type(condition)
        if kind is ast.HasItem:
            return self.text("reason.item", item=condition.item)
        if kind is ast.HasCodeword:
            return self.text("reason.codeword", codeword=condition.codeword)
        if kind is ast.Visited:
            return self.text("reason.visited", paragraph=self.destination(condition.paragraph))
        if kind is ast.WorldVisited:
            return self.text("reason.world", world=condition.world)
        if kind is ast.HasClass:
            return self.text("reason.class", name=condition.name)
        if kind is ast.Not:
            return self.text("reason.not")
        if kind is ast.Compare and isinstance(condition.left, ast.ValueRef):
            found = self._lookup(condition.left.name)
            name = self.ruleset.display_name(found[1], self.lang) if found else condition.left.name
            right = evaluate(condition.right, self)
            return self.text("reason.compare", name=name, op=condition.op, value=right)
        return self.text("reason.condition")

    def destination(self, target: ast.Destination, required: bool = False) -> int | None:
        """The paragraph number a destination names (None if unknown)."""
        if type(target) is ast.ParagraphRef:
            if target.number is not None and target.label is None:
                number = target.number
            else:
                number = self.book.resolve(target)
        else:
            number = evaluate(target.expr, self)
        if required and (number is None or number not in self.book.paragraphs):
            raise GameError(
                f"the book sends the reader to paragraph {number}, which does not exist",
                target.span,
            )
        return number

    def _lookup(self, name: str) -> tuple[str, str] | None:
        try:
            return self._names[name]
        except KeyError:
            found = self._names[name] = self.ruleset.resolve(name)
            return found

    def resolve(self, name: str, span, kinds: tuple[str, ...]) -> tuple[str, str]:
        """``(kind, id)`` of a stat/counter/test name, or a GameError at ``span``."""
        found = self._lookup(name)
        if found is None or found[0] not in kinds:
            raise GameError(
                f"{name!r} is not a {' or '.join(kinds)} of the ruleset {self.ruleset.name!r}",
                span,
            )
        return found

    def test_id(self, name: str, span) -> str:
        """A roll-under test by its name, or by the stat it tests (``luck`` / LUCK)."""
        wanted = folded(name)
        tests = self.ruleset.tests
        for ident, test in tests.items():
            if wanted == folded(ident) or wanted in {folded(n) for n in test.names.values()}:
                return ident
        found = self._lookup(name)
        if found is not None:
            for ident, test in tests.items():
                if found == ("test", ident) or (found[0] == "stat" and test.stat == found[1]):
                    return ident
        raise GameError(
            f"{name!r} is not a test of the ruleset {self.ruleset.name!r}",
            span,
            hint=f"tests: {', '.join(tests) or '-'}",
        )

    def counter_id(self, name: str, span) -> str:
        return self.resolve(name, span, ("counter",))[1]

    def class_id(self, name: str, strict: bool = True) -> str | None:
        wanted = folded(name)
        for ident, klass in self.ruleset.classes.items():
            if wanted == folded(ident) or wanted in {folded(n) for n in klass.names.values()}:
                return ident
        if strict:
            names = ", ".join(self.ruleset.classes) or "-"
            raise GameError(f"unknown class {name!r}", hint=f"classes: {names}")
        return None

    def item_key(self, name: str) -> str:
        """The inventory key for an item name as written (matched without case/accents)."""
        items = self.state.hero.items
        if name in items:
            return name
        wanted = folded(name)
        for key in items:
            if folded(key) == wanted:
                return key
        return name

    def _parsed(self, text: str, span):
        try:
            return self._dice[text]
        except KeyError:
            expr = self._dice[text] = parse_dice(text, span)
            return expr


_SIMPLE = frozenset({ast.LoseItem, ast.SetCodeword, ast.ClearCodeword, ast.OpenWorld})


def _exhaust(gen: Gen, into: list) -> Any:
    """Run a generator that asks nothing, keeping its events; return its result."""
    while True:
        try:
            into.append(next(gen))
        except StopIteration as stop:
            return stop.value


def _opened_world(body: tuple[ast.Statement, ...]) -> str | None:
    for statement in body:
        if type(statement) is ast.OpenWorld:
            return statement.world
    return None


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
