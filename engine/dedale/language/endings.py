"""Ending lines that cannot mean what they say (issue 12.6).

``> victoire`` ends the book while ``> victoire -> 10`` is a fight outcome: one forgotten
arrow makes winning the first fight end the book. So, within one paragraph:

* nothing but prose may follow an ending line (a choice or a rule there is never reached);
* an ending line right after a fight (its enemies and options are part of it) is an error
  that says what the author probably meant: ``> victoire -> N`` / ``> défaite -> N``.
"""

from __future__ import annotations

from collections.abc import Sequence

from dedale import ast
from dedale.errors import BookStructureError, DedaleError
from dedale.i18n import tr

_WRITTEN = {"victory": "`> victory`/`> victoire`", "death": "`> death`/`> mort`"}


def check_endings(body: Sequence[ast.Statement], errors: list[DedaleError]) -> None:
    """Append an error for each misplaced ending line of one paragraph's ``body``."""
    previous: ast.Statement | None = None
    ending: ast.Ending | None = None
    for statement in body:
        if isinstance(statement, ast.Prose):
            continue
        if ending is not None:
            errors.append(_after_ending(statement, ending))
            continue  # one ending is enough to explain every line after it
        if isinstance(statement, ast.Ending):
            ending = statement
            if isinstance(previous, ast.Fight):
                errors.append(_after_fight(statement, previous))
        previous = statement


def _after_ending(statement: ast.Statement, ending: ast.Ending) -> BookStructureError:
    what = (
        tr("this choice comes after {ending}, which ends the book", ending=_WRITTEN[ending.kind])
        if isinstance(statement, ast.Choice)
        else tr("this line comes after {ending}, which ends the book", ending=_WRITTEN[ending.kind])
    )
    return BookStructureError(
        what,
        statement.span,
        tr(
            "nothing after an ending line is ever reached (the ending is at line {line}): "
            "move the ending last, or remove it",
            line=ending.span.line,
        ),
    )


def _after_fight(ending: ast.Ending, fight: ast.Fight) -> BookStructureError:
    if ending.kind == "victory":
        message = tr(
            "`victory` right after a fight ends the book as soon as the fight is won; "
            "did you mean the fight's outcome `> victory -> N` / `> victoire -> N`?"
        )
        hint = tr(
            "to go on after winning, write `> win -> N` / `> victoire -> N` with the paragraph "
            "to turn to; to end the book on a victory, send the win to a paragraph holding "
            "`> victory`"
        )
    else:
        message = tr(
            "`death` right after a fight kills the hero even when the fight is won; "
            "did you mean the fight's outcome `> lose -> N` / `> défaite -> N`?"
        )
        hint = tr(
            "losing a fight already ends the book in death; to go somewhere when the fight is "
            "lost, write `> lose -> N` / `> défaite -> N`"
        )
    if fight.win is not None:
        hint = tr(
            "this fight already goes to {target} when won, so this line is reached by no one",
            target=_target(fight.win),
        )
    return BookStructureError(message, ending.span, hint)


def _target(ref: object) -> str:
    number = getattr(ref, "number", None)
    if number is not None:
        return str(number)
    return str(getattr(ref, "label", None) or "?")
