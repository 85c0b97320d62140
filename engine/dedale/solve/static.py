"""Paragraphs the solver reads off the state, without a replay.

A paragraph of prose and plain choices changes nothing the state keeps: its tree is its
choices from the same state (:meth:`StaticParagraphs._static`). Also here: which visits
and whether the previous paragraph the book reads (:func:`read_state`).
"""

from __future__ import annotations

import json
from typing import Any

from dedale import ast
from dedale.solve.conditions import reads_only
from dedale.solve.model import Decision, Next
from dedale.solve.nodes import Entry
from dedale.solve.snapshot import key as snapshot_key

POSSESSIONS = (ast.HasItem, ast.HasCodeword, ast.HasFlag)


class StaticParagraphs:
    """The explorer's shortcuts for plain paragraphs (mixed into
    :class:`dedale.solve.explore.Explorer`, whose attributes they read)."""

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
                if not reads_only(statement.condition, POSSESSIONS):
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


def read_state(book) -> tuple[frozenset[int], bool, bool]:
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
