"""Interface strings in French and English, stored as data in ``i18n/{fr,en}.yaml``."""

from __future__ import annotations

from functools import cache
from importlib import resources

from ruamel.yaml import YAML

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "en"


@cache
def _catalogue(lang: str) -> dict[str, object]:
    source = resources.files("dedale.player").joinpath("i18n", f"{lang}.yaml")
    data = YAML(typ="safe").load(source.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def normalise_language(lang: str | None) -> str:
    """``fr-FR`` -> ``fr``; anything unknown -> English."""
    short = (lang or "").lower().replace("_", "-").split("-")[0]
    return short if short in LANGUAGES else DEFAULT_LANGUAGE


class Texts:
    """Look up interface strings by dotted key: ``texts("fight.won")``."""

    def __init__(self, lang: str | None) -> None:
        self.lang = normalise_language(lang)

    def has(self, key: str) -> bool:
        return self._find(self.lang, key) is not None

    def __call__(self, key: str, /, **params: object) -> str:
        found = self._find(self.lang, key)
        if found is None:
            found = self._find(DEFAULT_LANGUAGE, key)
        if found is None:
            return key
        try:
            return found.format(**params)
        except (KeyError, IndexError, ValueError):
            return found

    @staticmethod
    def _find(lang: str, key: str) -> str | None:
        node: object = _catalogue(lang)
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        return node if isinstance(node, str) else None
