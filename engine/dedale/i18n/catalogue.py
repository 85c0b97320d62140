"""The gettext catalogue: ``locale/<lang>/LC_MESSAGES/dedale.mo`` inside this package.

Read with the standard library's :mod:`gettext` (plural forms from the catalogue's
``Plural-Forms`` header); a language without a compiled catalogue answers in English.
"""

from __future__ import annotations

import functools
import gettext
from importlib import resources

DOMAIN = "dedale"


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (a NullTranslations, i.e. English, when none)."""
    folder = resources.files(__package__).joinpath("locale", lang, "LC_MESSAGES")
    source = folder.joinpath(f"{DOMAIN}.mo")
    try:
        with source.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    except (OSError, FileNotFoundError):
        return gettext.NullTranslations()


def lookup(lang: str, msgid: str, plural: str | None = None, count: int | None = None) -> str:
    """The template of ``msgid`` in ``lang`` (the plural form ``count`` asks for)."""
    catalogue = translations(lang)
    if plural is not None:
        return catalogue.ngettext(msgid, plural, count if count is not None else 1)
    return catalogue.gettext(msgid)
