"""Choices that stand before the rules that follow them (issue 13.5).

A paragraph's lines run in order. Choices written after the last rule line are offered at
the end, as they always were; choices followed by a rule line (a fight, a test, a change...)
are offered when the reading reaches that rule, together with a "go on" option named
after it ("Fight the TROLL", "Test your Luck", "Read on"); the rest of the paragraph runs
only if the reader goes on.
"""

from __future__ import annotations

from dedale import ast
from dedale.events import ChoiceOption, ChoosePrompt
from dedale.game.choices import Offered, offer

_ROLLS = (ast.DuoTest, ast.D20Test, ast.RandomRoll, ast.Wager)


def go_on_text(statement: ast.Statement, runner) -> str:
    """The label of the option that goes on to ``statement`` (the rule after the choices)."""
    kind = type(statement)
    if kind is ast.Fight and statement.enemies:  # type: ignore[union-attr]
        names = ", ".join(enemy.name for enemy in statement.enemies)  # type: ignore[union-attr]
        return runner.text("flow.fight", enemies=names)
    if kind is ast.Test:
        if statement.dice is not None:  # type: ignore[union-attr]
            return runner.text("flow.roll")
        test_id = runner.test_id(statement.name, statement.span)  # type: ignore[union-attr]
        names = runner.ruleset.tests[test_id].names
        name = names.get(runner.lang) or names.get("en") or statement.name  # type: ignore[union-attr]
        return runner.text("flow.test", test=name)
    if isinstance(statement, _ROLLS):
        return runner.text("flow.roll")
    return runner.text("flow.read_on")


def stop_prompt(
    choices: list[ast.Choice], statement: ast.Statement, runner, allow_revisit: bool
) -> tuple[list[Offered], ChoosePrompt]:
    """The choices offered before ``statement`` and the prompt, its last option going on."""
    offered = offer(choices, runner, allow_revisit)
    go_on = ChoiceOption(
        index=len(offered) + 1, text=go_on_text(statement, runner), target=None, go_on=True
    )
    options = tuple(o.option for o in offered) + (go_on,)
    return offered, ChoosePrompt(options=options)
