"""How the plan runner reads the game's questions: which option a ``choose`` step means,
which enemy an ``answer`` names, and how a question and the choices offered are told in a
finding."""

from __future__ import annotations

import difflib

from dedale import events
from dedale.i18n import Message, has_message, message, tr
from dedale.plans.model import Choose
from dedale.rules import fold


def describe(prompt: events.Prompt, lang: str = "en"):
    """The question a prompt asks, for a finding (a yes/no one as the plain player asks it,
    in ``lang``)."""
    kind = type(prompt)
    if kind is events.ChoosePrompt:
        return tr("for a choice ({offers})", offers=offers_text(prompt.options) or "-")  # type: ignore[attr-defined]
    if kind is events.YesNoPrompt:
        return tr("a yes/no question ({kind})", kind=yes_no_question(prompt, lang))  # type: ignore[arg-type]
    if kind is events.NumberPrompt:
        return tr("for a number")
    if kind is events.TargetPrompt:
        return tr("which enemy to attack ({enemies})", enemies=", ".join(prompt.enemies))  # type: ignore[attr-defined]
    if kind is events.DropItemPrompt:
        return tr("which item to drop ({items})", items=", ".join(prompt.items))  # type: ignore[attr-defined]
    if kind is events.ClassPrompt:
        return tr("for a class ({classes})", classes=", ".join(prompt.classes))  # type: ignore[attr-defined]
    return type(prompt).__name__


def quoted(text: str):
    """``text`` between the quotes of the finding's language (« » in French)."""
    return tr("“{text}”", text=text)


class _Question(Message):
    """The plain player's question of a yes/no prompt (its keyed ``ask.*`` text), quoted, in
    the language the finding is rendered in."""

    key: str
    values: dict

    def __new__(cls, key: str, values: dict) -> _Question:
        obj = super().__new__(cls, "{text}", {"text": message("en", key, **values)})
        obj.key, obj.values = key, values
        return obj

    def translate(self, lang):  # type: ignore[override]
        if not isinstance(lang, str):
            return str.translate(self, lang)
        return quoted(message(lang, self.key, **self.values)).translate(lang)


def yes_no_question(prompt: events.YesNoPrompt, lang: str):
    """The plain player's question for ``prompt``, quoted; the prompt's key when the
    catalogue has no question for it."""
    key = f"ask.{prompt.kind}"
    values = {"hero_e": "", **dict(prompt.params)}
    if has_message(lang, key) and has_message("en", key):
        try:
            for each in ("en", "fr", lang):
                message(each, key, **values)  # every language can fill it
            return _Question(key, values)
        except (KeyError, IndexError, ValueError):
            pass
    return prompt.kind


def offers_text(options) -> str:
    shown = []
    for option in options:
        if not option.enabled:
            continue
        if option.target is not None and not option.computed:
            shown.append(str(option.target))
        else:
            shown.append(quoted(option.text))
    return ", ".join(shown)


def choice_wanted(step: Choose):
    if step.target is not None:
        return tr("to {target}", target=step.target)
    if step.number is not None:
        return f"#{step.number}"
    return quoted(step.text or "")


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


def hidden_number_option(options):
    """The one open choice that asks for a number (a hidden-number prompt: no target, not a
    go-on option, not a computed destination), or None."""
    found = [
        o for o in options if o.enabled and o.target is None and not o.go_on and not o.computed
    ]
    return found[0] if len(found) == 1 else None
