"""Messages of the interface in French and English, from the gettext catalogue.

Two ways to name a text:

- ``tr("paragraph {number} is defined twice", number=n)`` (and ``ntr`` for plural forms):
  the English sentence is the msgid; see :mod:`dedale.i18n.text`.
- ``message(lang, key, count=None, **params)``: a keyed message (``event.fight_won``) of the
  interface, formatted with ``str.format``; ``count`` chooses the plural form and is also
  given as ``{count}``. A key missing in a language falls back to English, then to the key
  itself, so a front end never crashes on a missing translation.

The catalogue is ``locale/<lang>/LC_MESSAGES/dedale.po`` (compiled to ``.mo``, read with
the standard library); see :mod:`dedale.i18n.catalogue`.
"""

from __future__ import annotations

from typing import Any

from dedale.i18n.catalogue import INTERFACE, LANGUAGES, keyed, keyed_template
from dedale.i18n.text import (
    Localised,
    Message,
    Number,
    format_template,
    ntr,
    number,
    tr,
    translate,
)

__all__ = [
    "LANGUAGES",
    "Localised",
    "Message",
    "Number",
    "catalogue",
    "has_message",
    "message",
    "ntr",
    "number",
    "tr",
    "translate",
]

DEFAULT_LANGUAGE = "fr"


def catalogue(lang: str) -> dict[str, str]:
    """Every keyed message of the interface in one language (plural ones: last form)."""
    if lang not in LANGUAGES:
        lang = "en"
    return {key: keyed_template(lang, INTERFACE, key) or key for key in keyed(lang, INTERFACE)}


def message(lang: str, key: str, count: int | None = None, **params: Any) -> str:
    """The message ``key`` in ``lang``, formatted with ``params`` (``count``: plural form)."""
    template = keyed_template(lang, INTERFACE, key, count)
    if template is None:
        template = keyed_template("en", INTERFACE, key, count)
    if count is not None:
        params.setdefault("count", count)
    if template is None:
        return key if not params else f"{key} {params}"
    return format_template(template, params, lang)


def has_message(lang: str, key: str) -> bool:
    """Whether ``key`` exists in ``lang`` or in English."""
    return key in keyed(lang, INTERFACE) or key in keyed("en", INTERFACE)
