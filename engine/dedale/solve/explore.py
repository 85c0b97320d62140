"""Replaying one paragraph from a snapshot through the real interpreter, token by token.

A replay starts a :class:`dedale.game.Game` from the node's snapshot (or from the hero's
creation, for the root), feeds it the tokens of a prefix — die faces, fight outcomes,
answers — and stops at the first thing the prefix does not decide: a random outcome, a
prompt, the next paragraph, or the end of the game. :func:`Explorer.tree` turns the replays
of every prefix into the paragraph's expectimax tree.
"""

from __future__ import annotations

from typing import Any

from dedale.events import Prompt
from dedale.game import Game
from dedale.i18n import tr
from dedale.solve import clock
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
from dedale.solve.nodes import Entry, Root
from dedale.solve.prompts import Prompts
from dedale.solve.snapshot import expand
from dedale.solve.snapshot import key as snapshot_key
from dedale.solve.static import StaticParagraphs, read_state
from dedale.solve.templates import Templates

MAX_REPLAYS = 50_000
"""Replays allowed for one paragraph's tree (a paragraph past it is reported, not cut)."""


class Explorer(StaticParagraphs, Prompts):
    """Builds the trees of one book's nodes (see the module docstring)."""

    def __init__(
        self, book, luck_policy: str, intern, *, shortcuts: bool = True, known=None,
        prune: bool = True, shared: dict | None = None, eager: bool = True,
        collapse: bool = True,
    ) -> None:  # fmt: skip
        self.book = book
        self.collapse = collapse  # escape fights without Luck as one node (solve.escape_duel)
        self.oracle = FightOracle(luck_policy, shared)
        self.oracle.explorer = self
        self.intern_known = known or (lambda entry: None)
        self.prebuilt: dict[Any, Tree] = {}  # escape fights' nodes, built with their fight
        self.deadline: float | None = None  # clock.now() past which OutOfTime is raised
        if shortcuts:
            self.oracle.resolve = self._next
        self.shortcuts = shortcuts
        self._static_choices: dict[int, Any] = {}
        self._offered: dict[tuple[int, str], tuple] = {}  # options by what conditions read
        meals = book.ruleset.meals
        self._meals_anywhere = bool(meals and meals.anywhere)
        self.intern = intern  # Entry -> node id (the graph's table)
        self.watched, self.watch_all, self.came_from = read_state(book)
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

    def _build(self, origin: Root | Entry, tokens: tuple, where) -> Tree:
        self._budget -= 1
        if self.deadline is not None and not self._budget % 64 and clock.now() > self.deadline:
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
