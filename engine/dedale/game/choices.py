"""Which choices of a paragraph the reader may take, and why not.

A choice is offered when its condition holds, its costs can be paid and, in rulesets with
the Worlds rule, it does not lead into a World already visited (unless the choice says
``revisit`` or the paragraph allows revisits). A forbidden choice is hidden, or shown
disabled with its reason, as the author set (``display``); the Worlds rule follows the same
setting. A hidden-number choice (issue 13) is offered with no target: taking it asks the
number (dedale.game.hidden).
"""

from __future__ import annotations

from dataclasses import dataclass

from dedale import ast
from dedale.events import ChoiceOption
from dedale.game.conditions import first_failing, holds


@dataclass(frozen=True, slots=True)
class Offered:
    """A choice as offered now: the option shown and what taking it means."""

    option: ChoiceOption
    choice: ast.Choice | ast.HiddenNumber
    target: int | None


def offer(
    choices: list[ast.Choice],
    runner,  # the Runner (a conditions World, with costs, worlds and target resolution)
    allow_revisit: bool,
) -> list[Offered]:
    """The options shown to the reader, numbered from 1 in the order written."""
    offered: list[Offered] = []
    for choice in choices:
        if type(choice) is ast.HiddenNumber:
            hidden = hidden_option(choice, runner, len(offered) + 1)
            if hidden is not None:
                offered.append(hidden)
            continue
        target = runner.destination(choice.target)
        reason = ""
        if choice.condition is not None and not holds(choice.condition, runner):
            if choice.display == "hidden":
                continue
            failing = first_failing(choice.condition, runner) or choice.condition
            reason = runner.describe_condition(failing)
        if not reason and choice.costs:
            reason = runner.cost_problem(choice.costs)
        if not reason and not (allow_revisit or choice.revisit):
            world = runner.closed_world(target)
            if world is not None:
                reason = runner.text("reason.world_visited", world=world)
        if reason and choice.display == "hidden":
            continue
        option = ChoiceOption(
            index=len(offered) + 1,
            text=choice.text,
            target=target,
            enabled=not reason,
            reason=reason,
            computed=type(choice.target) is not ast.ParagraphRef,
        )
        offered.append(Offered(option, choice, target))
    return offered


def hidden_option(choice: ast.HiddenNumber, runner, index: int) -> Offered | None:
    """A hidden-number choice (``-> ? (40, 56) Text``) as offered now: no target shown;
    disabled (or hidden) when its condition fails or its wrong tries are used up."""
    reason = ""
    if choice.condition is not None and not holds(choice.condition, runner):
        if choice.display == "hidden":
            return None
        failing = first_failing(choice.condition, runner) or choice.condition
        reason = runner.describe_condition(failing)
    reason = reason or runner.hidden_refusal(choice)
    text = choice.text or runner.text("choice.hidden_number")
    option = ChoiceOption(index=index, text=text, target=None, enabled=not reason, reason=reason)
    return Offered(option, choice, None)
