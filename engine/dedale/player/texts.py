"""Interface strings of the Textual player in French and English, from the gettext catalogue.

They are the keyed messages of the ``player`` context (see :mod:`dedale.i18n.catalogue`):
``Texts("fr")("fight.won")``; ``count=`` chooses a plural form.
"""

from __future__ import annotations

from collections.abc import Mapping

from dedale.i18n.catalogue import PLAYER, keyed, keyed_template
from dedale.i18n.text import format_template

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "en"


def _catalogue(lang: str) -> dict[str, object]:
    """Every player text of ``lang`` as a nested mapping of its dotted keys."""
    tree: dict[str, object] = {}
    for key in keyed(normalise_language(lang), PLAYER):
        node = tree
        *parents, last = key.split(".")
        for part in parents:
            child = node.setdefault(part, {})
            if not isinstance(child, dict):
                break
            node = child
        else:
            node[last] = keyed_template(lang, PLAYER, key) or key
    return tree


def normalise_language(lang: str | None) -> str:
    """``fr-FR`` -> ``fr``; anything unknown -> English."""
    short = (lang or "").lower().replace("_", "-").split("-")[0]
    return short if short in LANGUAGES else DEFAULT_LANGUAGE


class Texts:
    """Look up interface strings by dotted key: ``texts("fight.won")``."""

    def __init__(self, lang: str | None, articles: Mapping[str, str] | None = None) -> None:
        self.lang = normalise_language(lang)
        self.articles: Mapping[str, str] = articles or {}
        """The articles of the book's enemies (name -> ``le``, ``the``…), for the narration."""
        self.book_gender: str | None = None  # the hero's gender as the book gives it
        self.chosen_gender: str | None = None  # ... or as the player chose it (wins)

    @property
    def hero_e(self) -> str:
        """The ending French gives a word about the hero: "e" (morte) or ""."""
        return "e" if (self.chosen_gender or self.book_gender) == "f" else ""

    def has(self, key: str) -> bool:
        return key in keyed(self.lang, PLAYER)

    def __call__(self, key: str, /, count: int | None = None, **params: object) -> str:
        found = keyed_template(self.lang, PLAYER, key, count)
        if found is None:
            found = keyed_template(DEFAULT_LANGUAGE, PLAYER, key, count)
        if found is None:
            return key
        if count is not None:
            params.setdefault("count", count)
        params.setdefault("hero_e", self.hero_e)
        return format_template(found, params, self.lang)
