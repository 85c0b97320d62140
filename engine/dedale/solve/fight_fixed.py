"""The conditions of a fight's rules that nothing in the fight can change, read at its start.

A rule under an enemy may read what the fight's exact odds do not follow: a book's flag
(``> si veau qui suit : il inflige 1``), a counter of the book's ``state:``, a visited
paragraph, a World, the hero's class or a status, a count of items, an initial value. None
of them changes during the fight — its events may only change the ruleset's counters,
codewords, STAMINA and the enemy's SKILL (:func:`dedale.validator.fight_plan.plan_of`
refuses any other effect, and :mod:`dedale.solve.fights_acting` an event on a counter of
the book's state) — so the solver reads each such atom once from its own state at the
fight, through the interpreter (:func:`dedale.game.conditions.holds` over the runner), and
replaces it by a constant before the plan of the fight is made. The fight's odds then follow
the rest as before (STAMINA, the counters and codewords its events change).
"""

from __future__ import annotations

import dataclasses

from dedale import ast

FIXED = (ast.HasFlag, ast.Visited, ast.WorldVisited, ast.HasClass, ast.HasStatus)
"""Atoms no event of a fight can change."""


def fixed_atom(atom, runner, ruleset) -> bool:
    """Whether ``atom`` reads only what stays as it is during the fight (see the module):
    a flag, a visit, a World, the class, a status, a count of items above one, or a
    comparison of numbers, book ``state:`` counters and initial values (not a current
    stat, nor a counter of the ruleset: the fight's odds follow those)."""
    kind = type(atom)
    if kind in FIXED:
        return True
    if kind is ast.HasItem:
        return atom.count > 1
    if kind is not ast.Compare:
        return False
    declared = runner.book.meta.state
    refs = list(_refs((atom.left, atom.right)))
    if not refs:
        return False
    for ref in refs:
        if type(ref) is not ast.ValueRef:
            return False
        if declared and declared.counter(ref.name) is not None:
            continue  # a counter of the book's state (an event changing it is refused)
        found = ruleset.resolve(ref.name)
        if not ref.initial or found is None or found[0] != "stat":
            return False  # (an initial value is fixed, LUCK's too; the current ones are not)
    return True


def fold_fixed(statement: ast.Fight, runner, ruleset):
    """``(statement with every fixed atom of its rules' conditions replaced by a constant,
    the truth values read)``; the statement itself when there is none."""
    truths: list[bool] = []

    def fold(condition):
        if condition is None:
            return None
        if fixed_atom(condition, runner, ruleset):
            from dedale.game.conditions import holds

            truth = holds(condition, runner)
            truths.append(truth)
            return _constant(condition.span, truth)
        if type(condition) is ast.Not:
            return dataclasses.replace(condition, operand=fold(condition.operand))
        if type(condition) in (ast.And, ast.Or):
            return dataclasses.replace(
                condition, operands=tuple(fold(part) for part in condition.operands)
            )
        return condition

    rules = tuple(dataclasses.replace(rule, condition=fold(rule.condition))
                  for rule in statement.rules)  # fmt: skip
    if not truths:
        return statement, ()
    return dataclasses.replace(statement, rules=rules), tuple(truths)


def _constant(span, truth: bool) -> ast.Compare:
    """A condition that is always ``truth`` (``1 = 1`` / ``1 = 0``)."""
    return ast.Compare(span=span, left=ast.Num(span=span, value=1), op="=",
                       right=ast.Num(span=span, value=int(truth)))  # fmt: skip


def _refs(exprs):
    for expr in exprs:
        if type(expr) is ast.Num:
            continue
        if type(expr) is ast.BinOp:
            yield from _refs((expr.left, expr.right))
        else:
            yield expr
