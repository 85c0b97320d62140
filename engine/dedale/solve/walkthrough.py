"""The best decisions on the most likely winning line, paragraph by paragraph.

From the root the walk takes, at each decision, the option of highest value, and at each
chance node the branch that contributes most to winning (probability x value): the line a
reader most likely follows when he wins by playing perfectly. Each step is a
:class:`Step` (the lead's ``--plan`` writer reads these dataclasses).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dedale.solve.duel import Duel
from dedale.solve.graph import SolveResult, value_of
from dedale.solve.model import Chance, Decision, Next

MAX_STEPS = 10_000
"""The walk stops after this many steps (a hub walked round forever)."""

FATAL = 1e-12
"""An option whose winning chance is at most this is fatal."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step: in ``paragraph``, ``decision`` (None: nothing to decide there) taken with
    ``win_probability`` of winning from that point; ``fatal``: the other options there
    that lose for sure (each a decision dict); ``rolled``: what the dice or a fight gave
    on the way (``{"kind": "dice", "faces": [..]}``, ``{"kind": "fight", ...}``)."""

    paragraph: int
    decision: dict[str, Any] | None
    win_probability: float
    fatal: tuple[dict[str, Any], ...] = ()
    rolled: tuple[dict[str, Any], ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "paragraph": self.paragraph,
            "decision": self.decision,
            "win_probability": self.win_probability,
        }
        if self.fatal:
            data["fatal"] = list(self.fatal)
        if self.rolled:
            data["rolled"] = list(self.rolled)
        return data


def walkthrough(result: SolveResult) -> list[Step]:
    """The steps of the most likely winning line under best play (empty when the book
    cannot be won with this hero)."""
    values, trees, targets = result.values, result.trees, result.targets
    steps: list[Step] = []
    if not trees or values[0] <= FATAL:
        return steps
    node = 0
    seen = {0}
    while len(steps) < MAX_STEPS:
        tree = trees[node]
        decided = False
        rolled: list[dict[str, Any]] = []
        paragraph = targets[node]
        while len(steps) < MAX_STEPS:
            kind = type(tree)
            if kind is Duel:  # a fight with the book's best Luck: its outcomes under it
                tree = Chance(tree.branches(lambda sub: value_of(sub, values)))
                kind = Chance
            if kind is Decision:
                scored = [(value_of(sub, values), label, sub) for _, label, sub in tree.options]
                best = max(scored, key=lambda item: item[0])
                fatal = tuple(label for v, label, _ in scored if v <= FATAL and best[0] > FATAL)
                if node:  # the root's decisions are the creation's
                    steps.append(Step(paragraph, best[1], best[0], fatal, tuple(rolled)))
                    rolled = []
                decided = True
                tree = best[2]
            elif kind is Chance:
                scored = [
                    (p * value_of(s, values), token, s)
                    for p, token, s in tree.branches
                    if type(s) is not Next or s.node not in seen  # a hub: the way on
                ]
                if not scored or max(item[0] for item in scored) <= FATAL:
                    return steps
                _, token, tree = max(scored, key=lambda item: item[0])
                rolled.append(_rolled(token))
            else:
                break
        passing = type(tree) is Next and targets[tree.node] == paragraph and not rolled
        if not decided and node and not passing:  # (a fight's first state: no step yet)
            steps.append(Step(paragraph, None, values[node], (), tuple(rolled)))
        elif rolled and steps and node:
            last = steps[-1]
            steps[-1] = Step(
                last.paragraph, last.decision, last.win_probability, last.fatal,
                last.rolled + tuple(rolled),
            )  # fmt: skip
        if type(tree) is not Next or tree.node in seen:
            break
        node = tree.node
        seen.add(node)
    return steps


def _rolled(token: tuple) -> dict[str, Any]:
    kind, value = token
    if kind == "f":
        if value == -1:
            return {"kind": "fight", "won": False}
        if len(value) == 5:  # a fight in which the book acts: which way it ended
            return _acting(value)
        if len(value) == 3 and value[2] == "limit":  # an assault limit reached alive
            return {"kind": "fight", "won": False, "limit": True, "stamina": value[0],
                    "luck": value[1]}  # fmt: skip
        if value[0] <= 0:  # a defeat exit's end (0, LUCK): beaten, on with 1 STAMINA
            return {"kind": "fight", "won": False, "defeat": True, "luck": value[1]}
        return {"kind": "fight", "won": True, "stamina": value[0], "luck": value[1]}
    if kind == "x":  # an assault of an escape fight: kill, hit, hurt, tie
        return {"kind": "assault", "result": value}
    if kind == "l":
        return {"kind": "luck_test", "lucky": value}
    if kind == "U":  # a roll-under test thrown as its two outcomes (solve.dice)
        passed, test = value
        return {"kind": "test", "success": passed, **({"test": test} if test else {})}
    faces = list(value) if isinstance(value, tuple) else [value]
    return {"kind": "dice", "faces": faces}


def _acting(value: tuple) -> dict[str, Any]:
    """A fight in which the book acts (``solve.fights_acting``): won, or ended by one of its
    rules (``way``: limit, first, assaults, threshold, exit, event), STAMINA and LUCK then."""
    way = value[2]
    found: dict[str, Any] = {"kind": "fight", "won": way in ("won", "first", "assaults")}
    if way == "limit":
        found["limit"] = True
    elif way != "won":
        found["way"] = way
    found["stamina"], found["luck"] = value[0], value[1]
    return found
