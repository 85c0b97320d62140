"""The rules of the action tests that are not roll-under tests: reliques duo tests and d20
action rolls, written from their ruleset parameters."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dedale.i18n import tr

if TYPE_CHECKING:
    from dedale.export.rules_text import RulesWriter


def action_tests(writer: RulesWriter) -> list[str]:
    """The sentences of the ruleset's duo test and d20 action roll, if it has them."""
    out: list[str] = []
    say = writer.say
    duo = writer.ruleset.duo
    if duo is not None:
        out.append(
            say(
                tr(
                    "for an action test, roll {dice}: you succeed when the total is at most the "
                    "sum of the two stats the paragraph names (a single stat counts twice), "
                    "plus the test's difficulty; that sum never goes below {low} nor above "
                    "{high}",
                    dice=writer.dice(duo.dice.text),
                    low=duo.target_min,
                    high=duo.target_max,
                )
            )
        )
        out.append(
            say(
                tr(
                    "a roll of {success} is a critical success and a roll of {failure} a "
                    "critical failure, whatever the target",
                    success="-".join(map(str, duo.critical_success)),
                    failure="-".join(map(str, duo.critical_failure)),
                )
            )
        )
    d20 = writer.ruleset.d20
    if d20 is not None:
        out.append(
            say(
                tr(
                    "for an action roll, roll {trained} and add your {action} when you are "
                    "trained in the action, else roll {untrained}; add the bonus of the stat "
                    "the paragraph names: you succeed when the total reaches the difficulty",
                    trained=d20.trained.text,
                    untrained=d20.untrained.text,
                    action=writer.stat(d20.action_stat),
                )
            )
        )
        levels = [
            f"{level.names.get(writer.lang) or level.id} {level.value}"
            for level in d20.difficulties
            if level.value is not None
        ]
        if levels:
            out.append(say(tr("the difficulties: {levels}", levels=", ".join(levels))))
        out.append(
            say(
                tr(
                    "a total at least {margin} above the difficulty is a critical success, "
                    "at least {margin} below it a critical failure",
                    margin=d20.critical_margin,
                )
            )
        )
    return out
