"""The gettext catalogue: ``locale/<lang>/LC_MESSAGES/dedale.mo`` inside this package.

Read with the standard library's :mod:`gettext` (plural forms from the catalogue's
``Plural-Forms`` header); a language without a compiled catalogue answers in English. The
``.po`` sources sit beside the ``.mo`` files; ``tools/i18n/update.py`` (Babel, a development
tool only) extracts, merges and compiles them.

The catalogue holds two kinds of entries:

- sentences: the msgid is the English text of a :func:`dedale.i18n.tr` call;
- keyed messages: the msgid is a stable dotted key (``event.fight_won``) under a msgctxt
  naming its family (:data:`INTERFACE` for :func:`dedale.i18n.message`, :data:`PLAYER` for
  :class:`dedale.player.texts.Texts`), translated in every language, English included.
"""

from __future__ import annotations

import functools
import gettext
from importlib import resources

DOMAIN = "dedale"
LANGUAGES = ("fr", "en")
INTERFACE = "interface"
PLAYER = "player"

Entry = str | tuple[str, ...]  # one template, or its plural forms by plural index


@functools.cache
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (a NullTranslations, i.e. English, when none)."""
    if lang not in LANGUAGES:
        return gettext.NullTranslations()
    folder = resources.files(__package__).joinpath("locale", lang, "LC_MESSAGES")
    source = folder.joinpath(f"{DOMAIN}.mo")
    try:
        with source.open("rb") as handle:
            return gettext.GNUTranslations(handle)
    except OSError:
        return gettext.NullTranslations()


def lookup(lang: str, msgid: str, plural: str | None = None, count: int | None = None) -> str:
    """The template of ``msgid`` in ``lang`` (the plural form ``count`` asks for)."""
    catalogue = translations(lang)
    if plural is not None:
        return catalogue.ngettext(msgid, plural, count if count is not None else 1)
    return catalogue.gettext(msgid)


@functools.cache
def keyed(lang: str, context: str) -> dict[str, Entry]:
    """Every keyed message of ``context`` in ``lang``: key -> template or plural forms."""
    # GNUTranslations keeps its entries in ``_catalog``: singular ones under
    # "context\x04key", plural ones under ("context\x04key", index).
    raw = getattr(translations(lang), "_catalog", {})
    prefix = f"{context}\x04"
    single: dict[str, Entry] = {}
    forms: dict[str, dict[int, str]] = {}
    for msgid, text in raw.items():
        if isinstance(msgid, tuple):
            name, index = msgid
            if name.startswith(prefix):
                forms.setdefault(name[len(prefix) :], {})[index] = text
        elif msgid.startswith(prefix):
            single[msgid[len(prefix) :]] = text
    for key, by_index in forms.items():
        single[key] = tuple(by_index[i] for i in sorted(by_index))
    return single


def plural_index(lang: str, count: int) -> int:
    """Which plural form ``count`` takes in ``lang`` (the catalogue's Plural-Forms)."""
    rule = getattr(translations(lang), "plural", None)
    if rule is None:
        return 0 if count == 1 else 1
    return int(rule(count))


def keyed_template(lang: str, context: str, key: str, count: int | None = None) -> str | None:
    """The template of ``key`` in ``lang`` (its plural form for ``count``), None if absent.

    A plural entry asked for without a count gives its last (most general) form.
    """
    entry = keyed(lang, context).get(key)
    if entry is None or isinstance(entry, str):
        return entry
    if not entry:
        return None
    index = len(entry) - 1 if count is None else plural_index(lang, count)
    return entry[min(index, len(entry) - 1)]
