"""The paragraph executor: a generator that runs the book against the rules core.

:meth:`Runner.run` yields events and prompts (see dedale.events) and receives answers
through ``send()``; :class:`dedale.game.Game` wraps it in the pull API. It creates the hero,
then enters paragraph after paragraph: each paragraph's statements run in order (the
handlers are in :mod:`dedale.game.statements`, the values they read in
:mod:`dedale.game.scope`), then its choices are offered. The rules core's generators are
``yield from``-ed, so their dice, assaults and prompts flow through unchanged. With
``quiet=True`` (the random tester, benchmarks) no event is built — prompts are still asked —
and the code path is the same.
"""

from __future__ import annotations

from collections.abc import Generator
from functools import partial
from typing import Any

from dedale import ast, events
from dedale.errors import GameError
from dedale.game import playtest
from dedale.game.amateur import AmateurStatements
from dedale.game.book_state import count_change, flag_change
from dedale.game.cache import cache_for
from dedale.game.choices import Offered, offer
from dedale.game.conditions import holds
from dedale.game.creation import creation_options, reroll_allowance, show_rolls, stat_entries
from dedale.game.expressions import interpolate
from dedale.game.fight_extras import FightExtras
from dedale.game.flow import stop_prompt
from dedale.game.forced import HISTORY_LIMIT, ForcedRun, trim_history
from dedale.game.hidden import HiddenNumbers
from dedale.game.penalties import lift_penalties, start_penalty
from dedale.game.pickups import DropAtWill, drop_at_will, may_take
from dedale.game.scope import GameScope
from dedale.game.state import GameState, HistoryEntry
from dedale.game.statements import END, Statements
from dedale.game.triggers import fire_triggers, holds_triggers
from dedale.i18n import message, tr
from dedale.language.order import NOT_RULES
from dedale.rules import (
    RandomSource,
    Ruleset,
    StatRoll,
    create_character,
)

EAT = object()
"""Sent into the runner at a ChoosePrompt: the reader eats a meal (then the prompt is re-asked)."""

_AGAIN = object()
"""What :meth:`Runner._aside` returns when the choice prompt is to be asked again."""

Gen = Generator[Any, Any, Any]


class Runner(Statements, HiddenNumbers, AmateurStatements, FightExtras, GameScope):
    """Executes a Book for one game; holds no state of its own beyond the paragraph's."""

    def __init__(self, game) -> None:
        self.game = game
        self.book = game.book
        self.ruleset: Ruleset = game.book.ruleset
        self.rng: RandomSource = game.rng
        self.state: GameState = game.state
        self.emit = not game.quiet
        fight = self.ruleset.fight
        self.health = getattr(fight, "health", None)
        self.god_mode = False  # playtest: the hero is spared at 0 health
        cache = self._cache = cache_for(game.book)
        self._paragraphs = game.book.paragraphs
        meals = self.ruleset.meals
        self._meals_anywhere = bool(meals and meals.anywhere)
        self._names = cache.names
        self._worlds_of = cache.worlds_of
        self._dice = cache.dice
        self._rolls: list[events.DiceRolled] = []
        self.last_dice: int | None = None  # ROLL / TIRAGE (dedale.game.test_forms)
        self._choices: list[ast.Choice] = []
        self._stops = 0  # choices offered before a rule line, in this paragraph so far
        self._revisit = False
        self._resume = False
        self._text: list[ast.Prose] = []
        self._held: list[events.Event] = []
        self._forced = ForcedRun()  # paragraphs entered since the last decision
        self.at_choice = False  # waiting at the paragraph's own choices
        #: whether the hero may hold an item with a trigger (set once one is taken)
        self.watch_triggers = holds_triggers(self.state.hero)
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
            ast.HiddenNumber: self._hidden_number,
            ast.HiddenParagraph: self._nothing,
            ast.NoteParagraph: self._note,
            ast.StatusOn: self._status_on,
            ast.StatusOff: self._status_off,
            ast.ForcedMeal: self._forced_meal,
            ast.Shop: self._shop,
            ast.Wager: self._wager,
            ast.SetFlag: partial(flag_change, self),
            ast.ClearFlag: partial(flag_change, self),
            ast.ChangeCount: partial(count_change, self),
            ast.Penalty: partial(start_penalty, self),
            ast.MayTake: partial(may_take, self),
            ast.WatchedWager: self._watched_wager,
        }

    @property
    def lang(self) -> str:
        """The interface language (the game's, which a front end may change)."""
        return self.game.lang

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
        enter = (self.game.origin or {}).get("enter")
        if type(enter) is int:  # dedale.solve: enter this paragraph afresh from the snapshot
            number, resume = enter, False
        halt = getattr(self.game, "halt", None)  # dedale.solve: stop before entering one
        while number is not None:
            if halt is not None and halt(number):
                return
            number = yield from self._paragraph(number, resume)
            resume = False

    def _create(self) -> Gen:
        creation = self.game.creation
        ruleset = self.ruleset
        options = creation_options(self.book)
        class_name = creation.get("class")
        if class_name is None and ruleset.classes:
            class_name = yield events.ClassPrompt(classes=tuple(ruleset.classes))
        if class_name is not None:
            class_name = self.class_id(class_name)
        fixed = None
        if creation.get("hero"):
            ids = [stat.id for stat in ruleset.stats]
            fixed = dict(zip(ids, creation["hero"], strict=False))
        elif options.fixed_stats:  # the reader may type the stats in (None: roll them)
            entries = stat_entries(ruleset, class_name)
            if entries:
                typed = yield events.StatsPrompt(stats=entries)
                if typed is not None:
                    fixed = {entry.stat: value for entry, value in zip(entries, typed, strict=True)}
        rolls: list[StatRoll] = []
        hero = create_character(ruleset, self.rng, class_name, fixed, rolls)
        rolled = any(roll.faces for roll in rolls)
        rerolls = reroll_allowance(self.book) if rolled else 0
        while rerolls:
            if self.emit:
                yield from show_rolls(rolls)
            if not (yield events.YesNoPrompt(kind="reroll")):
                break
            rerolls -= 1
            rolls = []
            hero = create_character(ruleset, self.rng, class_name, fixed, rolls)
        else:
            if self.emit:
                yield from show_rolls(rolls)
        name = creation.get("name")
        if name is None:
            default = options.default_name or message(self.lang, "hero.default_name")
            name = yield events.NamePrompt(default=default)
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
        for item in self.book.meta.items:  # book.yaml's starting items, as `> take` gives
            yield from self._gain(item)

    def _paragraph(self, number: int, resume: bool = False) -> Gen:
        paragraph = self._paragraphs.get(number)
        if paragraph is None:
            raise GameError(tr("there is no paragraph {number} in this book", number=number))
        state = self.state
        decisions = len(self.game.decisions)
        # the guard against forced loops (raises ForcedLoopError)
        self._forced.enter(number, decisions, len(self.rng.log), state, self._paragraphs)
        if not resume and state.paragraph is not None:
            state.came_from = state.paragraph
        state.paragraph = number
        self._stops = 0
        if not resume:
            state.stop = 0
            visited = state.visited
            visited[number] = visited.get(number, 0) + 1
        history = state.history
        history.append(HistoryEntry(number, decisions))
        if len(history) > HISTORY_LIMIT:
            trim_history(history)
        state.meal_allowed = self._meals_anywhere
        if self.emit:
            yield events.ParagraphEntered(number=number, label=paragraph.label, span=paragraph.span)
        if state.statuses and not resume:
            yield from self._ongoing_effects()
            if self.watch_triggers:
                yield from fire_triggers(self)
            if self.health is not None and state.hero.stats.get(self.health, 1) <= 0:
                if self.god_mode:
                    yield from playtest.spare(self)
                else:
                    yield from self._die("health")
                    return None
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
            self.at_choice = True  # the reader may drop items here (issue 13 §7)
            answer = yield prompt
            self.at_choice = False
            aside = yield from self._aside(answer)
            if aside is _AGAIN:
                continue
            if aside is not None:
                return aside
            taken = offered[answer - 1]
            if type(taken.choice) is ast.HiddenNumber:  # the reader types the number
                jump = yield from self.take_hidden_choice(taken.choice)
                if jump is None:
                    continue
                return None if jump is END else jump
            flow = yield from self._take(taken)
            return None if flow is END else flow

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
            if kind is ast.Choice or (kind is ast.HiddenNumber and statement.offered):
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
            if self._choices and kind not in NOT_RULES:  # choices before this rule
                flow = yield from self._stop(statement)
                if flow is not None:
                    return flow
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
            if self.watch_triggers and flow is not END:
                yield from fire_triggers(self)  # "when STAMINA falls to 0: restore STAMINA"
            if self.state.penalties and flow is not END:
                yield from lift_penalties(self)  # "lose 2 SKILL until you find a weapon"
            if self.health is not None and self.state.hero.stats.get(self.health, 1) <= 0:
                if self.god_mode and flow is not END:
                    yield from self.flush()
                    yield from playtest.spare(self)
                    if flow is not None:
                        return flow
                    continue
                if flow is not END and self.state.in_fight:
                    # a rule acting inside a fight (an event under an enemy, a row of the
                    # assault table) felled the hero: the fight ends lost there, and its
                    # statement decides (a defeat exit, or death), as for a lost assault
                    return None
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
        if kind is ast.ChangeCount:
            return type(statement.amount) is ast.Num  # type: ignore[union-attr]
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
                tr(
                    "paragraph {number} is a dead end: it offers no choice the hero can take",
                    number=paragraph.number,
                ),
                paragraph.span,
                hint=tr("add a choice, a 'go to', or an ending (death/victory)"),
            )
        result = offered, events.ChoosePrompt(options=tuple(o.option for o in offered))
        if key not in prompts:
            prompts[key] = result if self._static(self._choices) else False
        return result

    def _static(self, choices: list[ast.Choice]) -> bool:
        """Whether these choices are offered the same way whatever the game's state."""
        for choice in choices:
            if type(choice) is not ast.Choice or choice.condition is not None or choice.costs:
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

    def _stop(self, statement: ast.Statement) -> Gen:
        """Offer the choices read so far, and going on to ``statement`` (issue 13.5);
        return the paragraph a choice leads to, END, or None to go on."""
        pending = list(self._choices)
        self._choices.clear()
        self._stops += 1
        state = self.state
        if self._resume:  # resuming a snapshot: only the stop it was taken at is asked
            if state.stop != self._stops:
                return None
            self._resume = False
        if self._text or self._held:
            yield from self.flush()
        while True:
            offered, prompt = stop_prompt(pending, statement, self, self._revisit)
            state.stop = self._stops
            answer = yield prompt
            state.stop = 0
            aside = yield from self._aside(answer)
            if aside is _AGAIN:
                continue
            if aside is not None:
                return aside
            if answer > len(offered):
                return None
            taken = offered[answer - 1]
            if type(taken.choice) is ast.HiddenNumber:  # the reader types the number
                jump = yield from self.take_hidden_choice(taken.choice)
                if jump is None:
                    continue
                return jump
            return (yield from self._take(taken))

    def _aside(self, answer: Any) -> Gen:
        """An answer to a choice prompt that is no choice: a meal, an item dropped (only
        where it may be, see game.pickups), a playtest tool. Returns _AGAIN to ask the
        prompt again, a paragraph a playtest tool jumps to, or None for a choice."""
        if answer is EAT:
            yield from self.eat()
            return _AGAIN
        if type(answer) is DropAtWill:  # the reader drops an item (issue 13 §7)
            yield from drop_at_will(self, answer)
            return _AGAIN
        if type(answer) is playtest.PlaytestAction:
            jump = yield from playtest.perform(self, answer)
            return _AGAIN if jump is None else jump
        return None

    def _take(self, taken: Offered) -> Gen:
        """Take a choice: pay its costs, run its effects; return its target (END if the
        effects end the game)."""
        choice = taken.choice
        self._choices = []
        if choice.costs:
            yield from self._pay(choice.costs)
        target = taken.target
        if target is None or target not in self._paragraphs:
            raise GameError(
                tr(
                    "this choice leads to paragraph {number}, which does not exist",
                    number=target,
                ),
                choice.span,
            )
        if choice.effects:
            flow = yield from self._block(choice.effects)
            if self._text or self._held:
                yield from self.flush()
            if flow is not None:
                return flow
        return target

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
                    name = self.ruleset.counted_name(counter, cost.amount, self.lang)
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


_SIMPLE = frozenset(
    {
        ast.LoseItem, ast.SetCodeword, ast.ClearCodeword, ast.OpenWorld,
        ast.NoteParagraph, ast.HiddenParagraph, ast.StatusOn, ast.StatusOff,
        ast.SetFlag, ast.ClearFlag,
    }
)  # fmt: skip


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
