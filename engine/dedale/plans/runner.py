"""Play a plan through the interpreter (the same :class:`dedale.game.Game` the players
drive) and report each mismatch at the plan line that expected otherwise.

A decision that no longer fits stops the plan there (what follows would test another
game); expectations that fail are reported and the plan goes on. Everything is bounded:
at most :data:`MAX_PULLS` events and questions per plan.
"""

from __future__ import annotations

from typing import Any

from dedale import events
from dedale.errors import DedaleError
from dedale.game import Game, InvalidAnswer
from dedale.i18n import tr
from dedale.plans.findings import PlanFinding, PlanResult, plan_finding
from dedale.plans.model import (
    Answer,
    At,
    Choose,
    Dice,
    Drop,
    Eat,
    Ending,
    Expect,
    God,
    Held,
    Jump,
    Plan,
    SetValue,
    Step,
    Value,
)
from dedale.plans.prompts import (
    choice_wanted,
    describe,
    enemy_index,
    find_option,
    hidden_number_option,
    offers_text,
    outcome_word,
    shown_answer,
)
from dedale.plans.values import held, value_of
from dedale.span import Span

MAX_PULLS = 1_000_000
"""The most events and questions one plan may pull from the game."""
DEFAULT_SEED = 0
"""The seed of a plan that names none (dice not forced still come from a seed)."""
_COMPARE = {
    "=": int.__eq__,
    ">=": int.__ge__,
    "<=": int.__le__,
    ">": int.__gt__,
    "<": int.__lt__,
}


class _Stop(Exception):
    """The plan cannot go on (its finding is already noted)."""


def run_plan(book, plan: Plan) -> PlanResult:
    """Play ``plan`` on ``book``; its findings are empty when the game went as planned."""
    return _Play(book, plan).run()


class _Play:
    def __init__(self, book, plan: Plan) -> None:
        self.book = book
        self.plan = plan
        self.findings: list[PlanFinding] = []
        self.pulls = 0
        self.game: Game | None = None
        self.step: Step | None = None
        self.index = 0

    # ------------------------------------------------------------------ the run

    def run(self) -> PlanResult:
        done = 0
        try:
            self.game = self.create()
            for index, step in enumerate(self.plan.steps):
                self.index, self.step = index, step
                self.perform(step)
                done += 1
                if isinstance(step, Ending):
                    break
            else:
                self.finish()
        except _Stop:
            pass
        except DedaleError as error:
            self.note("P030", self._runtime_message(error), self._span())
        game = self.game
        return PlanResult(
            self.plan.file,
            self.findings,
            outcome=game.outcome if game else None,
            paragraph=game.state.paragraph if game else None,
            steps=done,
            lang=self.plan.language,
        )

    def _runtime_message(self, error: DedaleError):
        return tr(
            "plan line {line}: the game stopped on an error: {error}",
            line=self._line(),
            error=error.located(self.plan.language),
        )

    def create(self) -> Game:
        plan = self.plan
        ruleset = self.book.ruleset
        given: dict[str, int] = {}
        for name, number in plan.hero:
            found = ruleset.resolve(name)
            if found is None or found[0] != "stat":
                stats = ", ".join(ruleset.display_name(s.id, plan.language) for s in ruleset.stats)
                self.stop(
                    "P002",
                    tr("{name} is not a stat of this book", name=name),
                    plan.hero_span,
                    hint=tr("the stats are: {stats}", stats=stats),
                )
            given[found[1]] = number  # type: ignore[index]
        hero: list[int] = []
        for stat in ruleset.stats:
            if stat.id not in given:
                break
            hero.append(given.pop(stat.id))
        if given:
            missing = ruleset.display_name(ruleset.stats[len(hero)].id, plan.language)
            self.stop(
                "P002",
                tr("the hero's stats miss {stat}", stat=missing),
                plan.hero_span,
                hint=tr("give the stats in the ruleset's order, from the first"),
            )
        try:
            return Game.new(
                self.book,
                plan.seed if plan.seed is not None else DEFAULT_SEED,
                hero=tuple(hero) if hero else None,
                class_name=plan.class_name,
                name=plan.name,
                quiet=True,
                free_stats=True,
            )
        except DedaleError as error:
            self.stop("P002", error.message, plan.hero_span, hint=error.hint)
            raise  # not reached

    # ------------------------------------------------------------------ findings

    def note(self, code: str, message, span: Span | None, hint=None) -> None:
        paragraph = self.game.state.paragraph if self.game else None
        self.findings.append(plan_finding(code, message, span, paragraph=paragraph, hint=hint))

    def stop(self, code: str, message, span: Span | None, hint=None) -> None:
        self.note(code, message, span, hint)
        raise _Stop

    def _span(self) -> Span | None:
        return getattr(self.step, "span", None) if self.step is not None else self.plan.hero_span

    def _line(self) -> int:
        span = self._span()
        return span.line if span else 1

    # ------------------------------------------------------------------ pulling

    def waiting(self, *, auto_yes_no: bool) -> events.Prompt | None:
        """Pull up to the next question the plan must answer (None: the game is over).
        Creation questions are answered from the plan's header; yes/no questions from
        its ``otherwise:`` when ``auto_yes_no``."""
        game = self.game
        assert game is not None
        while True:
            self.pulls += 1
            if self.pulls > MAX_PULLS:
                self.stop(
                    "P031",
                    tr(
                        "plan line {line}: the game ran past {count} events",
                        line=self._line(),
                        count=MAX_PULLS,
                    ),
                    self._span(),
                )
            item = game.next()
            if item is None:
                return None
            if not isinstance(item, events.Prompt):
                continue
            kind = type(item)
            if kind is events.NamePrompt:
                game.answer(self.plan.name or item.default)  # type: ignore[attr-defined]
            elif kind is events.StatsPrompt:
                game.answer(None)  # the hero given is passed at creation: roll the rest
            elif kind is events.ClassPrompt and self.plan.class_name:
                game.answer(self.plan.class_name)
            elif kind is events.YesNoPrompt and auto_yes_no and self.plan.otherwise is not None:
                game.answer(self.plan.otherwise)
            else:
                return item

    def where(self) -> str:
        game = self.game
        paragraph = game.state.paragraph if game else None
        return "§ ?" if paragraph is None else f"§ {paragraph}"

    def ended(self) -> None:
        """Stop: the game is over while the plan still has decisions to make."""
        assert self.game is not None
        self.stop(
            "P023",
            tr(
                "plan line {line} has more to play, but the game ended ({outcome}) at {where}",
                line=self._line(),
                outcome=outcome_word(self.game.outcome),
                where=self.where(),
            ),
            self._span(),
        )

    # ------------------------------------------------------------------ the steps

    def perform(self, step: Step) -> None:
        game = self.game
        assert game is not None
        if isinstance(step, Dice):
            game.rng.force(step.faces)
        elif isinstance(step, At):
            self.at(step)
        elif isinstance(step, Expect):
            self.expect(step)
        elif isinstance(step, Choose):
            self.choose(step)
        elif isinstance(step, Answer):
            self.answer(step)
        elif isinstance(step, Eat):
            self.eat()
        elif isinstance(step, Drop):
            self.drop(step)
        elif isinstance(step, Jump | SetValue | God):
            self.playtest(step)
        else:
            self.ending(step)

    def settle_until(self, holds) -> bool:
        """Whether ``holds()`` is true where the plan's next decision is made: past the
        yes/no questions ``otherwise:`` answers, unless that decision answers one."""
        self.waiting(auto_yes_no=self.next_decision_is_not_yes_no())
        return bool(holds())

    def next_decision_is_not_yes_no(self) -> bool:
        for step in self.plan.steps[self.index + 1 :]:
            if isinstance(step, Answer):
                return not isinstance(step.value, bool)
            if isinstance(step, Choose | Eat | Drop | Jump | SetValue | God):
                return True
        return True

    def at(self, step: At) -> None:
        game = self.game
        assert game is not None
        if self.settle_until(lambda: game.state.paragraph == step.paragraph):
            return
        history = game.state.history
        since = [e.paragraph for e in history if history and e.decisions == history[-1].decisions]
        hint = None
        if step.paragraph in since[:-1]:  # crossed without a decision: its dice came first
            hint = tr(
                "the game went through § {expected} without stopping there (a test, dice or a "
                "fight took it on): put `dice:` before the choice that leads there, and `at` "
                "the paragraph where the game waits",
                expected=step.paragraph,
            )
        self.note(
            "P010",
            tr(
                "plan line {line} expects § {expected}; the game is at {where}",
                line=self._line(),
                expected=step.paragraph,
                where=self.where(),
            ),
            step.span,
            hint,
        )

    def expect(self, step: Expect) -> None:
        if self.settle_until(lambda: not self.failures(step)):
            return
        for check, message, code in self.failures(step):
            self.note(code, message, check.span or step.span)

    def failures(self, step: Expect) -> list[tuple[Value | Held, Any, str]]:
        game = self.game
        assert game is not None
        found: list[tuple[Value | Held, Any, str]] = []
        line = self._line()
        for check in step.checks:
            if isinstance(check, Held):
                has = held(game, check.name)
                if has != check.held:
                    message = (
                        tr(
                            "plan line {line} expects {name} held; it is not",
                            line=line,
                            name=check.name,
                        )
                        if check.held
                        else tr(
                            "plan line {line} expects {name} not held; it is",
                            line=line,
                            name=check.name,
                        )
                    )
                    found.append((check, message, "P011"))
                continue
            value = value_of(game, check.name)
            if value is None:
                found.append(
                    (
                        check,
                        tr(
                            "plan line {line}: {name} is no stat, counter or item of this book",
                            line=line,
                            name=check.name,
                        ),
                        "P012",
                    )
                )
            elif not _COMPARE[check.operator](value, check.number):
                wanted = (
                    f"{check.operator} {check.number}"
                    if check.operator != "="
                    else str(check.number)
                )
                found.append(
                    (
                        check,
                        tr(
                            "plan line {line} expects {name} {wanted}; it is {value}",
                            line=line,
                            name=check.name,
                            wanted=wanted,
                            value=value,
                        ),
                        "P011",
                    )
                )
        return found

    def decision_prompt(self, *, auto_yes_no: bool = True) -> events.Prompt:
        prompt = self.waiting(auto_yes_no=auto_yes_no)
        if prompt is None:
            self.ended()
        return prompt  # type: ignore[return-value]

    def misfit(self, what, prompt: events.Prompt, hint=None) -> None:
        self.stop(
            "P021",
            tr(
                "plan line {line} {what}, but {where} asks {question}",
                line=self._line(),
                what=what,
                where=self.where(),
                question=describe(prompt, self.plan.language),
            ),
            self._span(),
            hint=hint,
        )

    def choose(self, step: Choose) -> None:
        prompt = self.decision_prompt()
        wanted = choice_wanted(step)
        if type(prompt) is not events.ChoosePrompt:
            self.misfit(tr("expects a choice {wanted}", wanted=wanted), prompt)
        options = prompt.options  # type: ignore[attr-defined]
        option = find_option(options, step)
        if option is None or not option.enabled:
            offered = offers_text(options) or tr("no choice open")
            hint = None
            if option is not None:
                hint = tr("this choice is closed here: {reason}", reason=option.reason)
            self.stop(
                "P020",
                tr(
                    "plan line {line} expects a choice {wanted}; {where} offers {offers}",
                    line=self._line(),
                    wanted=wanted,
                    where=self.where(),
                    offers=offered,
                ),
                step.span,
                hint=hint,
            )
        self.game.answer(option.index)  # type: ignore[union-attr]

    def answer(self, step: Answer) -> None:
        value = step.value
        is_bool = isinstance(value, bool)
        prompt = self.decision_prompt(auto_yes_no=not is_bool)
        kind = type(prompt)
        shown = shown_answer(value, self.plan.language)
        what = tr("answers {answer}", answer=shown)
        game = self.game
        assert game is not None
        if is_bool:
            if kind is not events.YesNoPrompt:
                self.misfit(what, prompt)
            game.answer(value)
            return
        if kind is events.NumberPrompt and isinstance(value, int):
            game.answer(value)
            return
        if kind is events.ChoosePrompt and isinstance(value, int) and not is_bool:
            number_choice = hidden_number_option(prompt.options)  # type: ignore[attr-defined]
            if number_choice is not None:  # `answer 40` at a hidden-number choice: take it
                game.answer(number_choice.index)
                following = self.decision_prompt(auto_yes_no=True)
                if type(following) is events.NumberPrompt:
                    game.answer(value)
                    return
                prompt = following
        if kind is events.TargetPrompt:
            enemies = prompt.enemies  # type: ignore[attr-defined]
            index = enemy_index(enemies, value)
            if index is not None:
                game.answer(index)
                return
        if kind in (events.DropItemPrompt, events.ClassPrompt) and isinstance(value, str):
            try:
                game.answer(value)
                return
            except InvalidAnswer:
                pass
        self.misfit(what, prompt)

    def eat(self) -> None:
        prompt = self.decision_prompt()
        game = self.game
        assert game is not None
        if not game.can_eat():
            self.misfit(tr("eats a meal"), prompt, hint=tr("no meal may be eaten here"))
        game.eat()

    def drop(self, step: Drop) -> None:
        prompt = self.decision_prompt()
        game = self.game
        assert game is not None
        what = tr("drops {item}", item=step.item)
        try:
            if type(prompt) is events.DropItemPrompt:
                game.answer(step.item)
            elif type(prompt) is events.ChoosePrompt:
                game.drop(step.item)
            else:
                self.misfit(what, prompt)
        except InvalidAnswer as error:
            self.misfit(what, prompt, hint=error.message)

    def playtest(self, step: Jump | SetValue | God) -> None:
        prompt = self.decision_prompt()
        game = self.game
        assert game is not None
        try:
            if isinstance(step, Jump):
                what = tr("jumps to § {number}", number=step.paragraph)
                game.jump_to(step.paragraph)
            elif isinstance(step, SetValue):
                what = tr("sets {name} to {value}", name=step.name, value=step.value)
                game.set_value(step.name, step.value)
            else:
                what = tr("turns god mode on") if step.on else tr("turns god mode off")
                game.set_god_mode(step.on)
        except InvalidAnswer as error:
            self.misfit(what, prompt, hint=error.message)

    def ending(self, step: Ending) -> None:
        if step.outcome == "stop":
            return
        prompt = self.waiting(auto_yes_no=True)
        game = self.game
        assert game is not None
        if prompt is not None:
            self.stop(
                "P022",
                tr(
                    "plan line {line} expects the ending ({outcome}), "
                    "but {where} still asks {question}",
                    line=self._line(),
                    outcome=outcome_word(step.outcome),
                    where=self.where(),
                    question=describe(prompt, self.plan.language),
                ),
                step.span,
            )
        if game.outcome != step.outcome:
            self.note(
                "P024",
                tr(
                    "plan line {line} expects {expected}; the game ended in {outcome} at {where}",
                    line=self._line(),
                    expected=outcome_word(step.outcome),
                    outcome=outcome_word(game.outcome),
                    where=self.where(),
                ),
                step.span,
            )

    def finish(self) -> None:
        """The steps are done: the game must be over (or the plan end with ``stop``)."""
        prompt = self.waiting(auto_yes_no=True)
        if prompt is None:
            return
        last = self.plan.steps[-1].span if self.plan.steps else self.plan.hero_span
        line = last.line if last else 1
        self.note(
            "P022",
            tr(
                "the plan ends at line {line}, but {where} still asks {question}",
                line=line,
                where=self.where(),
                question=describe(prompt, self.plan.language),
            ),
            last,
            hint=tr("add the next decisions, or end the plan with `stop`"),
        )
