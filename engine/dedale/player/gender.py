"""The hero's gender (issue 16.5): French sentences about the hero agree with it ("Vous êtes
morte"). The book may give it (``creation: gender: f``), the player may (``--gender f``);
else both players ask it at creation, right after the hero's name, when they speak French
(English sentences do not change with it). The choice is saved with the game (its creation
options and ``GameState.gender``) and wins over the book's when the game is loaded."""

from __future__ import annotations

from typing import Any

from dedale.i18n import tr, translate

GENDERS = ("m", "f")


def gender_to_ask(lang: str | None, given: str | None, book: str | None) -> bool:
    """Whether a new hero's gender is to be asked: the player speaks French and neither the
    command line (``given``) nor the book gives one."""
    return lang == "fr" and not given and not book


def gender_question(lang: str | None) -> str:
    """The question, in the player's language."""
    return translate(tr("Is your hero a man or a woman?"), lang)


def gender_keys(lang: str | None) -> str:
    """How the creation screen's choice is reached (the name box keeps the focus)."""
    return translate(tr("Tab: choose; Enter: confirm the name"), lang)


def gender_options(lang: str | None) -> list[tuple[str, str]]:
    """The answers as (label, gender), in the order they are offered."""
    labels = {"m": tr("a man"), "f": tr("a woman")}
    return [(translate(labels[g], lang), g) for g in GENDERS]


def gender_answer(text: str, lang: str | None) -> str | None:
    """A typed answer -> "m" / "f" (its number, its first letter or its label), else None."""
    word = text.strip().lower()
    options = gender_options(lang)
    if word.isdigit() and 1 <= int(word) <= len(options):
        return options[int(word) - 1][1]
    for label, gender in options:
        bare = label.lower().split()[-1]  # "un homme" -> "homme"
        if word in (label.lower(), bare, gender) or (word and bare.startswith(word)):
            return gender
    return None


def saved_gender(game: Any) -> str | None:
    """The gender a game (new or loaded) holds, or None."""
    state = getattr(game, "state", None)
    return getattr(state, "gender", "") or None


def keep_gender(game: Any, gender: str | None) -> None:
    """Note the hero's gender in the game's state, so that a save keeps it."""
    state = getattr(game, "state", None)
    if state is not None and gender in GENDERS:
        state.gender = gender
        creation = getattr(game, "creation", None)
        if isinstance(creation, dict):  # a loaded game replays from its creation options
            creation["gender"] = gender
