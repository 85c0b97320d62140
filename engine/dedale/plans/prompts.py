"""How the plan runner reads the game's questions: which option a ``choose`` step means,
which enemy an ``answer`` names, and how a question and the choices offered are told in a
finding."""

from __future__ import annotations

import difflib

from dedale import events
from dedale.i18n import tr
from dedale.plans.model import Choose
from dedale.rules import fold


def describe(prompt: events.Prompt):
    """The question a prompt asks, for a finding."""
    kind = type(prompt)
    if kind is events.ChoosePrompt:
        return tr("for a choice ({offers})", offers=offers_text(prompt.options) or "-")  # type: ignore[attr-defined]
    if kind is events.YesNoPrompt:
        return tr("a yes/no question ({kind})", kind=prompt.kind)  # type: ignore[attr-defined]
    if kind is events.NumberPrompt:
        return tr("for a number")
    if kind is events.TargetPrompt:
        return tr("which enemy to attack ({enemies})", enemies=", ".join(prompt.enemies))  # type: ignore[attr-defined]
    if kind is events.DropItemPrompt:
        return tr("which item to drop ({items})", items=", ".join(prompt.items))  # type: ignore[attr-defined]
    if kind is events.ClassPrompt:
        return tr("for a class ({classes})", classes=", ".join(prompt.classes))  # type: ignore[attr-defined]
    return type(prompt).__name__


def offers_text(options) -> str:
    shown = []
    for option in options:
        if not option.enabled:
            continue
        if option.target is not None and not option.computed:
            shown.append(str(option.target))
        else:
            shown.append(f"“{option.text}”")
    return ", ".join(shown)


def choice_wanted(step: Choose):
    if step.target is not None:
        return tr("to {target}", target=step.target)
    if step.number is not None:
        return f"#{step.number}"
    return f"“{step.text}”"


def find_option(options, step: Choose):
    if step.number is not None:
        return next((o for o in options if o.index == step.number), None)
    if step.target is not None:
        matches = [o for o in options if o.target == step.target and not o.computed]
        return next((o for o in matches if o.enabled), matches[0] if matches else None)
    wanted = fold(step.text or "")
    exact = [o for o in options if fold(o.text) == wanted]
    if exact:
        return next((o for o in exact if o.enabled), exact[0])
    starts = [o for o in options if fold(o.text).startswith(wanted)]
    if len(starts) == 1:
        return starts[0]
    close = difflib.get_close_matches(wanted, [fold(o.text) for o in options], 1, 0.85)
    return next((o for o in options if close and fold(o.text) == close[0]), None)


def enemy_index(names: tuple[str, ...], value: int | str) -> int | None:
    """The index of an enemy given by its number (from 1) or its name."""
    if isinstance(value, int):
        return value - 1 if 1 <= value <= len(names) else None
    wanted = fold(value)
    return next((index for index, name in enumerate(names) if fold(name) == wanted), None)


def shown_answer(value: bool | int | str, lang: str) -> str:
    if isinstance(value, bool):
        return ("oui" if value else "non") if lang == "fr" else ("yes" if value else "no")
    return str(value)


def outcome_word(outcome: str | None):
    if outcome == "victory":
        return tr("victory")
    if outcome == "death":
        return tr("death")
    return tr("no ending")
