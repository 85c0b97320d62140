"""Tests as real books write them (issue 13 §6): the whole life of a test line.

A test line may be *optional* (``(optional)`` / ``(facultatif)``: the reader is asked first;
declining runs the ``declined`` / ``refus`` branch, or goes on with the paragraph), be
*repeated until success* (``(until success)`` / ``(jusqu'à réussite)``: each failure runs
its branch, then the dice are thrown again, until a success, the hero's death, or
:data:`REPEAT_LIMIT` throws), carry modifiers that count only while a condition holds
(``-1 if Dagger``), or compare two rolls (``roll 2d6 against 2d6``: ``higher`` / ``lower``
/ ``equal`` say how the first total compares with the second).

The runner keeps the total of the last roll of the paragraph (``ROLL`` / ``TIRAGE``).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from dedale import ast, events
from dedale.errors import GameError
from dedale.game.conditions import holds
from dedale.game.forced import FORCED_LIMIT
from dedale.i18n import tr
from dedale.rules import modifiers as mods
from dedale.rules.checks import run_dice_test, run_roll_compare

Gen = Generator[Any, Any, Any]

REPEAT_LIMIT = FORCED_LIMIT
"""The most throws of a test repeated until success (a book whose hero can never succeed
and never dies stops there with a located error, instead of looping forever)."""

SUCCESSES = ("success", "critical_success")


def active_modifiers(modifiers: tuple[ast.Modifier, ...], scope) -> tuple[ast.Modifier, ...]:
    """The modifiers that count now: those without a condition, and those whose condition
    holds (``-1 if Dagger`` while the hero carries a Dagger)."""
    if all(m.condition is None for m in modifiers):
        return modifiers
    return tuple(m for m in modifiers if m.condition is None or holds(m.condition, scope))


def show_conditional(scope, modifiers: tuple[ast.Modifier, ...]) -> Gen:
    """Tell the reader of each modifier that counts because its condition holds (the
    unconditional ones are in the paragraph's text)."""
    if not scope.emit:
        return
    for modifier in modifiers:
        if modifier.condition is not None:
            yield events.MessageShown(
                key="test_modifier", params=(("value", f"{modifier.value:+d}"),)
            )


def modifier_total(scope, modifiers: tuple[ast.Modifier, ...]) -> int:
    """The sum of the modifiers that count now, after the hero's class abilities."""
    active = active_modifiers(modifiers, scope)
    return mods.total(active, mods.hero_abilities(scope.ruleset, scope.state.hero))


def test_label(scope, statement) -> str:
    """What the optional prompt names: the test (Luck), its stats (FOR + AGL) or ''."""
    lang = scope.lang
    names = scope.ruleset.display_name
    if type(statement) is ast.DuoTest:
        stats = (scope.resolve(s, statement.span, ("stat",))[1] for s in statement.stats)
        return " + ".join(names(s, lang) for s in stats)
    if type(statement) is ast.D20Test:
        return names(scope.resolve(statement.stat, statement.span, ("stat",))[1], lang)
    if statement.against is not None:
        return ""
    if statement.dice is not None:
        return names(scope.resolve(statement.name, statement.span, ("stat", "counter"))[1], lang)
    return names(scope.test_id(statement.name, statement.span), lang)


def declined_branch(branches: tuple[ast.Branch, ...]) -> ast.Branch | None:
    return next((b for b in branches if b.outcome == "declined"), None)


def run_test_line(scope, statement: ast.Test | ast.DuoTest | ast.D20Test) -> Gen:
    """Run a test line with its branches; return None, a paragraph number or END."""
    if statement.optional:
        label = test_label(scope, statement)
        prompt = (
            events.YesNoPrompt(kind="optional_roll")
            if not label
            else events.YesNoPrompt(kind="optional_test", params=(("test", label),))
        )
        if not (yield prompt):
            branch = declined_branch(statement.branches)
            return None if branch is None else (yield from scope._block(branch.body))
    for _ in range(REPEAT_LIMIT):
        outcome, margin = yield from scope._test_roll(statement)
        branch = scope._pick_test_branch(statement, outcome, margin)
        if not statement.repeat or outcome in SUCCESSES:
            return None if branch is None else (yield from scope._block(branch.body))
        if branch is not None:
            flow = yield from scope._block(branch.body)
            if flow is not None:  # a jump, or the hero's death (END)
                return flow
        if scope.emit:
            yield events.MessageShown(key="test_again", params=())
    raise GameError(
        tr("this test was failed {count} times in a row", count=REPEAT_LIMIT),
        statement.span,
        hint=tr(
            "a test repeated until success needs a hero who can succeed, or a failure that "
            "costs something (`failure: lose 1 STAMINA`)"
        ),
    )


def dice_test(scope, statement: ast.Test) -> Gen:
    """``roll 4d6 against STAMINA +2``: success when dice + modifiers <= the value (with
    the items' bonuses to a stat). Returns the rules core's TestResult."""
    kind, ident = scope.resolve(statement.name, statement.span, ("stat", "counter"))
    hero = scope.state.hero
    if kind == "stat":  # the items' bonuses to the stat count, as in a test of the ruleset
        abilities = mods.hero_abilities(scope.ruleset, hero)
        target = hero.stats[ident] + mods.total(mods.item_modifiers(hero, ident), abilities)
    else:
        target = hero.counters.get(ident, 0)
    dice = scope._parsed(statement.dice.text, statement.dice.span)
    bonus = modifier_total(scope, statement.modifiers)
    return (yield from run_dice_test(scope.rng, dice, ident, target, bonus, emit=scope.emit))


def compare_rolls(scope, statement: ast.Test) -> Gen:
    """``roll 2d6 against 2d6``: the first roll (+ modifiers) compared with the second.
    Returns the rules core's TestResult (outcome higher/lower/equal)."""
    first = scope._parsed(statement.dice.text, statement.dice.span)
    second = scope._parsed(statement.against.text, statement.against.span)
    bonus = modifier_total(scope, statement.modifiers)
    return (yield from run_roll_compare(scope.rng, first, second, bonus, emit=scope.emit))


def last_roll(scope, span) -> int:
    """``ROLL`` / ``TIRAGE``: the total of the last roll of this paragraph."""
    value = scope.last_dice
    if value is None:
        raise GameError(
            tr("no dice were rolled in this paragraph before ROLL / TIRAGE"),
            span,
            hint=tr("put a `> roll 1d6` / `> lancez 1d6` line (or a test) above it"),
        )
    return value
