"""The Game: the pull API front ends, the validator and tests use (see dedale.game)."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from dedale import events
from dedale.errors import GameError
from dedale.events import Event, Prompt
from dedale.game.creation import stats_problem
from dedale.game.pickups import DropAtWill, droppable
from dedale.game.playtest import ACTIONS, PlaytestAction
from dedale.game.runner import EAT, Runner
from dedale.game.state import GameState
from dedale.i18n import DEFAULT_LANGUAGE, LANGUAGES, tr
from dedale.rules import RandomSource, fold
from dedale.rules.character import check_creation_values, shown_number
from dedale.rules.dice import MAX_SIDES

EAT_ACTION = {"action": "eat"}
"""How eating a meal appears in the decision log."""

ANSWER_BOUND = 10**9
"""No number answered to a prompt (a choice, a hidden number, a stake) goes past this."""


class InvalidAnswer(GameError):
    """An answer that does not fit the prompt (the game is left unchanged)."""


class Divergence(GameError):
    """Replaying a decision log stopped fitting the book (``index`` = first bad decision)."""

    def __init__(self, message: str, index: int):
        super().__init__(message)
        self.index = index


class Game:
    """One game of a book. Pull events with :meth:`next`, answer prompts with :meth:`answer`."""

    def __init__(
        self,
        book,
        seed: int,
        creation: dict[str, Any] | None = None,
        *,
        quiet: bool = False,
        origin: dict[str, Any] | None = None,
    ) -> None:
        self.book = book
        self.seed = seed
        self.creation: dict[str, Any] = dict(creation or {})
        self.quiet = quiet
        self.origin = origin
        self.lang = _language(self.creation.get("lang"), book)
        if origin is None:
            self.state = GameState()
            self.rng = RandomSource(seed)
        else:
            self.state = GameState.from_dict(origin["state"])
            self.state.history = []
            self.state.in_fight = False  # a snapshot taken mid-fight resumes at the choices
            self.rng = RandomSource(int(origin.get("seed", seed)))
        if self.creation.get("gender") in ("f", "m"):  # the hero's, chosen by the player
            self.state.gender = self.creation["gender"]
        self.decisions: list[Any] = []
        self._runner = Runner(self)
        self._gen = self._runner.run()
        self._prompt: Prompt | None = None
        self._send: Any = _NOTHING
        self._backlog: deque[Event | Prompt] = deque()
        self._finished = False

    @classmethod
    def new(
        cls,
        book,
        seed: int,
        *,
        hero: tuple[int, ...] | None = None,
        class_name: str | None = None,
        name: str | None = None,
        lang: str | None = None,
        quiet: bool = False,
        free_stats: bool = False,
    ) -> Game:
        """A new game; missing class and name are asked through prompts.

        ``hero`` values must be ones the ruleset's creation can roll (a GameError names the
        stat and its range) unless ``free_stats`` (playtest mode)."""
        ruleset = book.ruleset
        if hero is not None and len(hero) > len(ruleset.stats):
            raise GameError(
                tr(
                    "--hero gives {count} values; this ruleset has: {stats}",
                    count=len(hero),
                    stats=", ".join(stat.id for stat in ruleset.stats),
                )
            )
        creation: dict[str, Any] = {}
        if hero is not None:
            creation["hero"] = [int(v) for v in hero]
        if class_name is not None:
            creation["class"] = class_name
        if name is not None:
            creation["name"] = name
        if lang is not None:
            creation["lang"] = lang
        game = cls(book, seed, creation, quiet=quiet)
        known = None
        if class_name is not None:
            known = game._runner.class_id(class_name)  # an unknown class is a usage error, now
        if hero is not None and not free_stats:
            given = dict(zip((s.id for s in ruleset.stats), creation["hero"], strict=False))
            check_creation_values(ruleset, given, known, game.lang)
        return game

    # ------------------------------------------------------------------ pulling

    @property
    def over(self) -> bool:
        """True once the game has ended (victory or death)."""
        return self.state.outcome is not None

    @property
    def outcome(self) -> str | None:
        """ "victory", "death" or None while the game goes on."""
        return self.state.outcome

    @property
    def prompt(self) -> Prompt | None:
        """The prompt waiting for an answer, if any."""
        return self._prompt

    def next(self) -> Event | Prompt | None:
        """The next event or prompt; the same prompt again until it is answered; None at
        the end of the game."""
        if self._backlog:
            return self._backlog.popleft()
        if self._prompt is not None:
            return self._prompt
        return self._pull()

    def _pull(self) -> Event | Prompt | None:
        if self._finished:
            return None
        try:
            if self._send is _NOTHING:
                item = next(self._gen)
            else:
                value, self._send = self._send, _NOTHING
                item = self._gen.send(value)
        except StopIteration:
            self._finished = True
            return None
        if isinstance(item, Prompt):
            self._prompt = item
        return item

    def answer(self, value: Any) -> None:
        """Answer the waiting prompt; raises InvalidAnswer (changing nothing) if it does
        not fit."""
        prompt = self._prompt
        if prompt is None:
            raise InvalidAnswer(tr("there is no question to answer now"))
        value = self._check(prompt, value)
        self.decisions.append(value)
        self._prompt = None
        self._send = value

    def _check(self, prompt: Prompt, value: Any) -> Any:
        kind = type(prompt)
        if type(value) is int and not -ANSWER_BOUND <= value <= ANSWER_BOUND:
            raise InvalidAnswer(
                tr("{value} is not a number this game can use", value=shown_number(value))
            )
        if kind is events.ChoosePrompt:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidAnswer(
                    tr("a choice is answered with its number, not {value}", value=repr(value))
                )
            for option in prompt.options:  # type: ignore[attr-defined]
                if option.index == value:
                    if not option.enabled:
                        raise InvalidAnswer(
                            tr(
                                "choice {number} is not available: {reason}",
                                number=value,
                                reason=option.reason,
                            )
                        )
                    return value
            raise InvalidAnswer(tr("there is no choice {number}", number=shown_number(value)))
        if kind is events.YesNoPrompt:
            if not isinstance(value, bool):
                raise InvalidAnswer(
                    tr("this question is answered yes or no, not {value}", value=repr(value))
                )
            return value
        if kind is events.TargetPrompt:
            count = len(prompt.enemies)  # type: ignore[attr-defined]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < count:
                raise InvalidAnswer(
                    tr("the target must be an enemy number, not {value}", value=repr(value))
                )
            return value
        if kind is events.DropItemPrompt:
            items = prompt.items  # type: ignore[attr-defined]
            if isinstance(value, str):
                for item in items:
                    if fold(item) == fold(value):
                        return item
            raise InvalidAnswer(tr("{value} is not an item you carry", value=repr(value)))
        if kind is events.ClassPrompt:
            classes = prompt.classes  # type: ignore[attr-defined]
            if isinstance(value, str) and self._runner.class_id(value, strict=False):
                return self._runner.class_id(value)
            raise InvalidAnswer(
                tr(
                    "{value} is not one of the classes: {classes}",
                    value=repr(value),
                    classes=", ".join(classes),
                )
            )
        if kind is events.NamePrompt:
            if not isinstance(value, str):
                raise InvalidAnswer(tr("the hero's name is a text"))
            return value.strip() or prompt.default  # type: ignore[attr-defined]
        if kind is events.StatsPrompt:
            problem = stats_problem(prompt, value)  # type: ignore[arg-type]
            if problem is not None:
                raise InvalidAnswer(problem)
            return None if value is None else [int(given) for given in value]
        if kind is events.NumberPrompt:
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidAnswer(tr("this question is answered with a number"))
            return value
        return value

    # ------------------------------------------------------------------ meals

    def can_eat(self) -> bool:
        """Whether the reader may eat a meal now (at a choice, outside a fight, where the
        ruleset or the paragraph allows it, with a meal left)."""
        return (
            type(self._prompt) is events.ChoosePrompt
            and not self._backlog
            and self._runner.can_eat()
        )

    def eat(self) -> list[Event]:
        """Eat a meal; returns its events. The choice prompt is then asked again."""
        if not self.can_eat():
            raise InvalidAnswer(self._runner.text("error.cannot_eat"))
        return self._act(dict(EAT_ACTION), EAT)

    # ------------------------------------------------------------------ dropping items

    def droppable(self) -> tuple[str, ...]:
        """The items the reader may drop now (at a choice, outside fights; else none)."""
        if type(self._prompt) is not events.ChoosePrompt or self._backlog:
            return ()
        return droppable(self._runner)

    def drop(self, item: str) -> list[Event]:
        """Drop one of an item held, at a choice (logged as a decision); returns its
        events. The choice prompt is then asked again."""
        held = self.droppable()
        found = next((name for name in held if fold(name) == fold(str(item))), None)
        if found is None:
            raise InvalidAnswer(tr("{item} is not an item you may drop now", item=str(item)))
        return self._act({"action": "drop", "item": found}, DropAtWill(found))

    # ------------------------------------------------------------------ playtest

    # Each playtest tool is logged as a decision and works at a choice; its events (and
    # the next prompt) then come through next().

    def jump_to(self, paragraph: int) -> None:
        """Playtest: turn to ``paragraph`` now, from the current choice."""
        if paragraph not in self.book.paragraphs:
            raise InvalidAnswer(
                tr("there is no paragraph {number} in this book", number=shown_number(paragraph))
            )
        self._playtest({"action": "jump", "to": int(paragraph)})

    def set_value(self, name: str, value: int) -> None:
        """Playtest: set a stat (raising its initial value if needed) or a counter."""
        if self._runner.ruleset.resolve(name) is None:
            raise InvalidAnswer(
                tr("{name} is not a stat or counter of this ruleset", name=repr(name))
            )
        if not -ANSWER_BOUND <= int(value) <= ANSWER_BOUND:
            raise InvalidAnswer(
                tr("{value} is not a number this game can use", value=shown_number(int(value)))
            )
        self._playtest({"action": "set", "name": name, "value": int(value)})

    def force_dice(self, faces: Iterable[int]) -> None:
        """Playtest: the next dice thrown show these faces."""
        faces = [int(face) for face in faces]
        for face in faces:
            if not 1 <= face <= MAX_SIDES:
                raise InvalidAnswer(
                    tr(
                        "a die shows 1 to {most}, not {face}",
                        most=MAX_SIDES,
                        face=shown_number(face),
                    )
                )
        self._playtest({"action": "force", "faces": faces})

    def set_god_mode(self, on: bool) -> None:
        """Playtest: while on, the hero is spared (health restored) instead of dying."""
        self._playtest({"action": "god", "on": bool(on)})

    @property
    def god_mode(self) -> bool:
        """Whether playtest god mode is on."""
        return self._runner.god_mode

    def _playtest(self, decision: dict[str, Any]) -> None:
        if type(self._prompt) is not events.ChoosePrompt or self._backlog:
            raise InvalidAnswer(tr("playtest tools work at a choice"))
        produced = self._act(decision, PlaytestAction.from_decision(decision))
        self._backlog.extendleft(reversed(produced))  # before the prompt _act queued

    def _act(self, decision: dict[str, Any], sent: Any) -> list[Event]:
        """Log an action taken at a choice, run it, and return its events; the choice
        prompt (or the next paragraph's events up to a prompt) come next."""
        self.decisions.append(decision)
        self._prompt = None
        self._send = sent
        produced: list[Event] = []
        while True:
            item = self._pull()
            if item is None or isinstance(item, Prompt):
                if item is not None:
                    self._backlog.append(item)
                return produced
            produced.append(item)

    # ------------------------------------------------------------------ replay, undo

    def apply(self, decision: Any) -> None:
        """Apply one logged decision at the current prompt (answer or action)."""
        if decision == EAT_ACTION:
            self.eat()
        elif isinstance(decision, dict) and decision.get("action") == "drop":
            self.drop(str(decision.get("item", "")))
        elif isinstance(decision, dict) and decision.get("action") in ACTIONS:
            self._playtest(decision)
        else:
            self.answer(decision)

    def replay(self, decisions: Iterable[Any], *, keep_tail: bool = True) -> None:
        """Apply logged decisions in order, discarding their events; then pull up to the
        next prompt, keeping those events for :meth:`next` (``keep_tail``).

        Raises :class:`Divergence` at the first decision that no longer fits the book.
        """
        self._backlog.clear()
        for index, decision in enumerate(decisions):
            item = self._skip_to_prompt()
            if item is None:
                raise Divergence(
                    tr("the game ended before decision {number}", number=index + 1), index
                )
            try:
                self.apply(decision)
            except InvalidAnswer as error:
                reason = getattr(error, "message", str(error))
                raise Divergence(
                    tr(
                        "decision {number} no longer fits: {reason}",
                        number=index + 1,
                        reason=reason,
                    ),
                    index,
                ) from None
            self._backlog.clear()
        if keep_tail:
            self._settle()

    def _skip_to_prompt(self) -> Prompt | None:
        if self._prompt is not None:
            return self._prompt
        while True:
            item = self._pull()
            if item is None or isinstance(item, Prompt):
                return item

    def _settle(self) -> None:
        """Pull up to the next prompt (or the end), keeping the events for the front end."""
        if self._prompt is not None:
            return
        while True:
            item = self._pull()
            if item is None:
                return
            self._backlog.append(item)
            if isinstance(item, Prompt):
                return

    def fresh(self) -> Game:
        """A new game with the same book, seed, creation options and origin."""
        return Game(self.book, self.seed, self.creation, quiet=self.quiet, origin=self.origin)

    def rewind_to(self, history_index: int) -> None:
        """Go back to the moment paragraph ``history[history_index]`` was entered, by
        replaying the decision log's prefix from the seed (deterministic: same dice).
        The events from that moment on are given again by :meth:`next`, up to the first
        question."""
        history = self.state.history
        if not 0 <= history_index < len(history):
            raise GameError(
                tr("there is no step {history_index} in the history", history_index=history_index)
            )
        keep = history[history_index].decisions
        again = self.fresh()
        again.replay(self.decisions[:keep])
        self._adopt(again)

    def undo(self, steps: int = 1) -> None:
        """Step back ``steps`` paragraphs among those where the reader decided something
        (a paragraph read without a question is passed through again on the way)."""
        history = self.state.history
        index = len(history) - 1
        for _ in range(max(steps, 0)):
            current = history[index].decisions if index >= 0 else 0
            index -= 1
            while index >= 0 and history[index].decisions >= current:
                index -= 1
        if steps < 1 or index < 0:
            raise GameError(self._runner.text("error.nothing_to_undo"))
        self.rewind_to(index)

    def _adopt(self, other: Game) -> None:
        for name in (
            "state", "rng", "decisions", "_runner", "_gen", "_prompt", "_send",
            "_backlog", "_finished",
        ):  # fmt: skip
            setattr(self, name, getattr(other, name))
        self._runner.game = self

    # ------------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """The state as plain JSON-able data (after pulling up to the next prompt)."""
        self._settle()
        return self.state.to_dict()


class _Nothing:
    pass


_NOTHING = _Nothing()


def _language(wanted: str | None, book) -> str:
    if wanted in LANGUAGES:
        return wanted  # type: ignore[return-value]
    meta = getattr(book, "meta", None)
    lang = getattr(meta, "language", None) or (
        meta.get("language") if isinstance(meta, dict) else None
    )
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE
