"""Messages of the interface in French and English, kept as data (``fr.yaml``, ``en.yaml``).

``message(lang, key, **params)`` formats one message with ``str.format``; a key missing in
a language falls back to English, then to the key itself, so a front end never crashes on
a missing translation.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

from ruamel.yaml import YAML

# The gettext submodule is loaded first, so that ``def catalogue`` below is not shadowed by
# the submodule's attribute when a later ``from dedale.i18n.catalogue import`` loads it.
from dedale.i18n import catalogue as _gettext  # noqa: F401
from dedale.i18n.text import Message, ntr, tr, translate

__all__ = ["Message", "has_message", "message", "ntr", "tr", "translate"]

LANGUAGES = ("fr", "en")
DEFAULT_LANGUAGE = "fr"


@functools.cache
def catalogue(lang: str) -> dict[str, str]:
    """All messages of one language, flattened to dotted keys."""
    if lang not in LANGUAGES:
        lang = "en"
    text = resources.files(__package__).joinpath(f"{lang}.yaml").read_text(encoding="utf-8")
    data = YAML(typ="safe").load(text) or {}
    flat: dict[str, str] = {}
    _flatten(data, "", flat)
    return flat


def _flatten(data: dict[str, Any], prefix: str, into: dict[str, str]) -> None:
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            _flatten(value, f"{name}.", into)
        else:
            into[name] = str(value)


def message(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang``, formatted with ``params``."""
    template = catalogue(lang).get(key)
    if template is None:
        template = catalogue("en").get(key)
    if template is None:
        return key if not params else f"{key} {params}"
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


def has_message(lang: str, key: str) -> bool:
    """Whether ``key`` exists in ``lang`` or in English."""
    return key in catalogue(lang) or key in catalogue("en")
