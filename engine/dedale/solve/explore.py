"""Replaying one paragraph from a snapshot through the real interpreter, token by token.

A replay starts a :class:`dedale.game.Game` from the node's snapshot (or from the hero's
creation, for the root), feeds it the tokens of a prefix — die faces, fight outcomes,
answers — and stops at the first thing the prefix does not decide: a random outcome, a
prompt, the next paragraph, or the end of the game. :func:`Explorer.tree` turns the replays
of every prefix into the paragraph's expectimax tree.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from dedale import ast, events
from dedale.events import Prompt
from dedale.game import Game
from dedale.game.choices import offer
from dedale.i18n import tr
from dedale.solve.conditions import reads_only
from dedale.solve.dice import (
    EnumeratedDice,
    NeedChance,
    OutcomeDice,
    TokenStream,
    reads_test_rolls,
)
from dedale.solve.duel import Duel
from dedale.solve.eager import EagerMeals
from dedale.solve.escape import FIGHT_ENTRIES
from dedale.solve.fights import FightOracle, NeedDuel, Resolved
from dedale.solve.liveness import Liveness
from dedale.solve.meals import MealTiming
from dedale.solve.model import Chance, Decision, Leaf, Next, OutOfTime, SolveLimit, Tree
from dedale.solve.snapshot import expand
from dedale.solve.snapshot import key as snapshot_key
from dedale.solve.templates import Templates

MAX_REPLAYS = 50_000
"""Replays allowed for one paragraph's tree (a paragraph past it is reported, not cut)."""


@dataclass(frozen=True, slots=True)
class Root:
    """The root of a solve: the hero's creation with these values (and class)."""

    hero: tuple[int, ...]
    class_name: str | None


@dataclass(frozen=True, slots=True)
class Entry:
    """A graph node: the canonical snapshot (JSON text) just before entering ``target``."""

    state: str
    target: int


class Explorer:
    """Builds the trees of one book's nodes (see the module docstring)."""

    def __init__(
        self, book, luck_policy: str, intern, *, shortcuts: bool = True, known=None,
        prune: bool = True, shared: dict | None = None, eager: bool = True,
    ) -> None:  # fmt: skip
        self.book = book
        self.oracle = FightOracle(luck_policy, shared)
        self.oracle.explorer = self
        self.intern_known = known or (lambda entry: None)
        self.prebuilt: dict[Any, Tree] = {}  # escape fights' nodes, built with their fight
        self.deadline: float | None = None  # time.monotonic() past which OutOfTime is raised
        if shortcuts:
            self.oracle.resolve = self._next
        self.shortcuts = shortcuts
        self._static_choices: dict[int, Any] = {}
        self._offered: dict[tuple[int, str], tuple] = {}  # options by what conditions read
        meals = book.ruleset.meals
        self._meals_anywhere = bool(meals and meals.anywhere)
        self.intern = intern  # Entry -> node id (the graph's table)
        self.watched, self.watch_all, self.came_from = _read_state(book)
        self.liveness = Liveness(book, prune)
        self.prune = prune
        self.meal_timing = MealTiming(book, enabled=prune)
        # eat at once where keeping the meal cannot be better (dedale.solve.eager)
        self.eager = EagerMeals(book, luck_policy, enabled=prune and eager)
        self.eager.watch(self.oracle, shared)
        self._paragraph: int | None = None  # the paragraph being replayed
        # a test's two outcomes only, unless a rule reads its margin or roll
        whole = not shortcuts or reads_test_rolls(book)
        self._dice = EnumeratedDice if whole else OutcomeDice
        self._pruned: dict[tuple[str, int], str] = {}
        self.replays = 0
        self._loaded: tuple[Any, Any] = (None, None)  # the snapshot being replayed, parsed
        # a paragraph's tree once per part of the state it reads (dedale.solve.templates)
        self.templates = Templates(book) if shortcuts and prune else None
        self.origins: list = []  # the graph's nodes by id (set by the graph)
        self._recording: dict | None = None
        self._reading: Any = None

    # ------------------------------------------------------------------ trees

    def tree(self, origin: Root | Entry) -> Tree:
        """The expectimax tree of the paragraph ``origin`` enters (or of the creation)."""
        self._budget = MAX_REPLAYS
        if type(origin) in FIGHT_ENTRIES:
            return self.prebuilt.pop(origin)
        if self.shortcuts and type(origin) is Entry:
            found = self._static(origin)
            if found is not None:
                return found
        if self.templates is not None and type(origin) is Entry:
            return self._templated(origin)
        return self._build(origin, (), origin)

    def _templated(self, origin: Entry) -> Tree:
        """The paragraph's tree from its template when a state with the same active part
        was built before, else built and kept as one (:mod:`dedale.solve.templates`)."""
        templates = self.templates
        assert templates is not None
        reads = templates.reads(origin.target)
        if reads is None or '"statuses"' in origin.state or '"penalties"' in origin.state:
            return self._build(origin, (), origin)
        data = expand(origin.state)
        active, passive = templates.split(data, reads)
        key = (origin.target, snapshot_key(active))
        template = templates.cache.get(key)
        if template is not None:
            return templates.instantiate(template, passive, self._merged_next)
        self._loaded = (origin, data)
        self._recording, self._reading = {}, reads
        try:
            tree = self._build(origin, (), origin)
        finally:
            recorded, self._recording, self._reading = self._recording, None, None
        templates.store(key, tree, recorded, self.origins)
        return tree

    def _merged_next(self, data: dict, target: int) -> Next:
        self.liveness.prune(data, target)
        return Next(self.intern(Entry(snapshot_key(data), target)))

    def _static(self, origin: Entry) -> Decision | None:
        """A paragraph of prose and plain choices changes nothing the state keeps (the
        visit is not watched, the previous paragraph not read, no ongoing effect, no
        meal to eat, no World), so its tree is its choices from the same state: no
        replay. None when the paragraph is not of that kind."""
        shape = self._static_choices.get(origin.target, False)
        if shape is False:
            shape = self._static_choices[origin.target] = self._plain_paragraph(origin.target)
        if shape is None or '"statuses"' in origin.state:
            return None
        options, conditional = shape
        if self._meals_anywhere and self._may_eat(origin.state):
            waits = '"penalties"' not in origin.state and self.meal_timing.harmless_all(
                option[2] for option in options
            )
            if not waits:
                return None
        if conditional:  # the options offered depend on the items, codewords and flags
            data = json.loads(origin.state)
            key = (origin.target, json.dumps(
                [data["hero"]["items"], data["codewords"], data.get("flags")], sort_keys=True
            ))  # fmt: skip
            options = self._offered.get(key)
            if options is None:
                tree = self._build(origin, (), origin)
                if type(tree) is not Decision:
                    return tree  # type: ignore[return-value]
                options = self._offered[key] = tuple(
                    (token, label, label["target"]) for token, label, _ in tree.options
                )
                return tree
        return Decision(
            tuple(
                (token, label, Next(self.intern(Entry(self._prune(origin, target), target))))
                for token, label, target in options
            )
        )

    def _prune(self, origin: Entry, target: int) -> str:
        """``origin``'s snapshot as the key of a node entering ``target`` (the counters
        dead there set to 0), without a replay."""
        if self.liveness.same(origin.target, target):
            return origin.state
        key = (origin.state, target)
        found = self._pruned.get(key)
        if found is None:
            data = json.loads(origin.state)
            self.liveness.prune(data, target)
            found = self._pruned[key] = snapshot_key(data)
        return found

    def _plain_paragraph(self, number: int) -> tuple | None:
        book = self.book
        if self.came_from or self.watch_all or number in self.watched or book.ruleset.worlds:
            return None
        found = []
        conditional = False
        for statement in book.paragraphs[number].body:
            kind = type(statement)
            if kind is ast.Prose:
                continue
            if kind is not ast.Choice:
                return None
            if statement.condition is not None:
                if not reads_only(statement.condition, _POSSESSIONS):
                    return None
                conditional = True
            if statement.costs or statement.effects:
                return None
            ref = statement.target
            if type(ref) is not ast.ParagraphRef:
                return None
            target = ref.number if ref.number is not None else book.labels.get(ref.label)
            if target not in book.paragraphs:
                return None
            index = len(found) + 1
            label = {"kind": "choice", "target": target, "text": statement.text}
            found.append((("a", index), label, target))
        return (tuple(found), conditional) if found else None

    def _may_eat(self, key: str) -> bool:
        data = json.loads(key)["hero"]
        meals = self.book.ruleset.meals
        if data["counters"].get(meals.counter, 0) <= 0:
            return False
        return data["stats"].get(meals.stat, 0) < data["initial"].get(meals.stat, 0)

    def _build(self, origin: Root | Entry, tokens: tuple, where) -> Tree:
        self._budget -= 1
        if self.deadline is not None and not self._budget % 64 and time.monotonic() > self.deadline:
            raise OutOfTime
        if self._budget < 0:
            raise SolveLimit(
                tr(
                    "paragraph {number} has more than {count} dice outcomes and answers",
                    number=getattr(where, "target", self.book.start),
                    count=MAX_REPLAYS,
                ),
                hint=tr("the solver plays a paragraph's dice one by one: split the paragraph"),
            )
        stop = self._replay(origin, tokens)
        kind = stop[0]
        if kind == "leaf":
            return Leaf(stop[1])
        if kind == "tree":
            tree = stop[1]
            return _merged(tree.branches) if type(tree) is Chance else tree
        if kind == "next":
            return Next(self.intern(Entry(stop[2], stop[1])))
        if kind == "duel":
            need = stop[1]
            ends = {
                key: self._build(origin, (*tokens, ("f", key)), where) for key in need.keys
            }  # fmt: skip
            return Duel(need.table, need.begin, ends)
        if kind == "chance":
            return _merged(
                tuple(
                    (p, token, self._build(origin, (*tokens, token), where)) for p, token in stop[1]
                )
            )
        options = tuple(
            (token, label, direct or self._build(origin, (*tokens, token), where))
            for token, label, direct in stop[1]
        )
        return options[0][2] if len(options) == 1 and _trivial(options[0][1]) else Decision(options)

    # ------------------------------------------------------------------ one replay

    def _replay(self, origin: Root | Entry, tokens: tuple) -> tuple:
        self.replays += 1
        stream = TokenStream(tokens)
        self._paragraph = getattr(origin, "target", None)
        if type(origin) is Root:
            game = Game.new(
                self.book, 0, hero=origin.hero, class_name=origin.class_name, name="-",
                quiet=True,
            )  # fmt: skip
            skip = False
        else:
            if self._loaded[0] is not origin:
                self._loaded = (origin, expand(origin.state))
            snapshot = {"state": self._loaded[1], "enter": origin.target}
            game = Game(self.book, 0, {"name": "-"}, quiet=True, origin=snapshot)
            skip = True
        dice = self._dice(stream)
        game.rng = game._runner.rng = dice
        self.oracle.stream = stream
        game.fight_oracle = self.oracle  # type: ignore[attr-defined]
        halted: list[int] = []

        def halt(number: int) -> bool:
            nonlocal skip
            if skip:
                skip = False
                return False
            halted.append(number)
            return True

        game.halt = halt  # type: ignore[attr-defined]
        try:
            while True:
                item = game.next()
                if item is None:
                    break
                if isinstance(item, Prompt):
                    token = stream.answer()
                    if token is None:
                        return ("prompt", self._options(game, item))
                    if token == "eat":
                        game.eat()
                    else:
                        game.answer(token)
        except NeedChance as need:
            return ("chance", need.outcomes)
        except Resolved as resolved:
            return ("tree", resolved.tree)
        except NeedDuel as need:
            return ("duel", need)
        if game.outcome is not None:
            return ("leaf", 1.0 if game.outcome == "victory" else 0.0)
        if not halted:
            raise SolveLimit(tr("the game stopped without an ending"))
        return ("next", halted[0], self.canonical(game.state, halted[0]))

    def intern_fight(self, entry) -> int:
        return self.intern(entry)

    def next_node(self, state, target: int) -> Next:
        return self._next(state, target)

    def _next(self, state, target: int) -> Next:
        return Next(self.intern(Entry(self.canonical(state, target), target)))

    def canonical(self, state, target: int | None = None) -> str:
        """The snapshot as a key: what no rule reads later is left out (the history, the
        visits no condition asks about, the previous paragraph unless the book reads it,
        and, entering ``target``, the counters no rule reachable from it reads)."""
        data = state.to_dict(history=False)
        data["history"] = []
        data["name"] = "-"
        data["meal_allowed"] = False  # set again on entering a paragraph
        data["in_fight"] = False
        data.pop("stop", None)
        if self.prune and len(data["worlds"]) > 1:  # only ever asked whether one was entered
            data["worlds"] = sorted(data["worlds"])
        visited = data["visited"]
        if self.watch_all:
            data["visited"] = {k: 1 for k in visited}
        else:
            data["visited"] = {k: 1 for k in visited if int(k) in self.watched}
        if not self.came_from:  # the paragraph left only becomes the previous one
            data.pop("came_from", None)
            data["paragraph"] = None
        recording = self._recording
        if recording is not None and target is not None:
            active = self.templates.split(data, self._reading)[0]  # type: ignore[union-attr]
        if target is not None:
            self.liveness.prune(data, target)
        key = snapshot_key(data)
        if recording is not None and target is not None:
            recording[key, target] = active
        return key

    def _options(self, game: Game, prompt: Prompt) -> tuple:
        """The answers considered at a prompt: (token, walkthrough label, the Next it
        leads to when known without a replay, else None)."""
        if type(prompt) is not events.ChoosePrompt:
            return tuple((token, label, None) for token, label in _answers(game, prompt))
        plain = _plain_choices(game) if self.shortcuts else frozenset()
        eat = game.can_eat() and _hungry(game) and not self._meal_waits(game, prompt, plain)
        if eat and self.eager.forced(game, self._paragraph):
            return ((("a", "eat"), {"kind": "meal"}, None),)
        found: list[tuple[Any, dict[str, Any], Any]] = []
        keys: dict[int, str] = {}
        for o in prompt.options:  # type: ignore[attr-defined]
            if not o.enabled:
                continue
            label = {"kind": "choice", "target": o.target, "text": o.text}
            direct = None
            if o.index in plain and o.target in self.book.paragraphs:
                key = keys.get(o.target)
                if key is None:
                    key = keys[o.target] = self.canonical(game.state, o.target)
                direct = Next(self.intern(Entry(key, o.target)))
            found.append((("a", o.index), label, direct))
        if eat:
            found.append((("a", "eat"), {"kind": "meal"}, None))
        return tuple(found)

    def _meal_waits(self, game: Game, prompt, plain: frozenset[int]) -> bool:
        """Whether eating now can wait for the next choice (:mod:`dedale.solve.meals`)."""
        timing = self.meal_timing
        if not timing.enabled:
            return False
        if not self.shortcuts:
            plain = _plain_choices(game)
        options = [o for o in prompt.options if o.enabled]  # type: ignore[attr-defined]
        if not all(o.index in plain for o in options):
            return False
        return timing.can_wait(game, (o.target for o in options))


def _plain_choices(game: Game) -> frozenset[int]:
    """The options of the paragraph's own choice prompt that only turn to their target
    (no cost, no effect, no typed number): taking one changes nothing before the next
    paragraph, so the solver needs no replay for it."""
    runner = game._runner
    if not runner.at_choice or game.state.stop:
        return frozenset()
    plain = set()
    for offered in offer(runner._choices, runner, runner._revisit):
        choice = offered.choice
        if type(choice) is ast.Choice and not choice.costs and not choice.effects:
            plain.add(offered.option.index)
    return frozenset(plain)


def _hungry(game: Game) -> bool:
    """Whether a meal could do anything (the solver never eats at full health: the same
    stats with one meal fewer)."""
    meals = game.book.ruleset.meals
    hero = game.state.hero
    return hero.stats.get(meals.stat, 0) < hero.initial.get(meals.stat, 0)


def _answers(game: Game, prompt: Prompt) -> tuple[tuple[Any, dict[str, Any]], ...]:
    """The answers the solver considers at a prompt other than a choice, with labels."""
    kind = type(prompt)
    if kind is events.YesNoPrompt:
        name = prompt.kind  # type: ignore[attr-defined]
        if name == "use_luck":
            return tuple((("a", b), {"kind": "luck", "answer": b}) for b in (True, False))
        return tuple(
            (("a", b), {"kind": "yes_no", "prompt": name, "answer": b}) for b in (True, False)
        )
    if kind is events.NumberPrompt and prompt.answers:  # type: ignore[attr-defined]
        return tuple(
            (("a", n), {"kind": "answer", "value": n})
            for n in prompt.answers  # type: ignore[attr-defined]
        )
    if kind is events.DropItemPrompt:
        return tuple(
            (("a", item), {"kind": "drop", "item": item})
            for item in prompt.items  # type: ignore[attr-defined]
        )
    if kind is events.TargetPrompt:
        return tuple(
            (("a", i), {"kind": "target", "enemy": name})
            for i, name in enumerate(prompt.enemies)  # type: ignore[attr-defined]
        )
    raise SolveLimit(
        tr("the solver cannot answer this question: {prompt}", prompt=type(prompt).__name__)
    )


_POSSESSIONS = (ast.HasItem, ast.HasCodeword, ast.HasFlag)


def _trivial(label: dict[str, Any]) -> bool:
    """A lone option the walkthrough still shows (a choice), or one it can fold away."""
    return False


def _merged(branches: tuple) -> Tree:
    """Chance branches with the same ending or next node merged (their shares summed)."""
    merged: dict[Any, list] = {}
    rest: list = []
    for p, token, sub in branches:
        if type(sub) in (Leaf, Next):
            slot = merged.get(sub)
            if slot is None:
                merged[sub] = [p, token, sub]
            else:
                slot[0] += p
        else:
            rest.append((p, token, sub))
    if not rest and len(merged) == 1:
        return next(iter(merged))
    return Chance(tuple((p, t, s) for p, t, s in merged.values()) + tuple(rest))


def _read_state(book) -> tuple[frozenset[int], bool, bool]:
    """The paragraphs whose visits conditions read (all when one is computed), and whether
    the book reads the previous paragraph."""
    watched: set[int] = set()
    watch_all = False
    came_from = False
    stack: list[Any] = [p for p in book.paragraphs.values()]
    seen = 0
    while stack:
        seen += 1
        node = stack.pop()
        kind = type(node)
        if kind is ast.Visited:
            ref = node.paragraph
            number = getattr(ref, "number", None)
            label = getattr(ref, "label", None)
            if type(ref) is ast.ParagraphRef and isinstance(number, int):
                watched.add(number)
            elif type(ref) is ast.ParagraphRef and label in book.labels:
                watched.add(book.labels[label])
            else:
                watch_all = True
        elif kind is ast.PreviousParagraph:
            came_from = True
        if isinstance(node, tuple | list):
            stack.extend(node)
        elif hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, name) for name in node.__dataclass_fields__)
    return frozenset(watched), watch_all, came_from
