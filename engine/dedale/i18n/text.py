"""Translatable texts: ``tr("paragraph {number} is defined twice", number=12)``.

A :class:`Message` is a ``str`` whose value is the English text (so code that only needs
English keeps working), and which remembers its msgid and parameters so that a report can
show it in the reader's or author's language with ``message.translate("fr")``. The
catalogue is gettext (``.po`` files, compiled to ``.mo``; see :mod:`dedale.i18n.catalogue`);
the msgid is the English sentence, with ``{name}`` placeholders filled by ``str.format``.

Mark every text a person reads with :func:`tr` (or :func:`ntr` for plural forms) so that
the extraction (``pybabel extract -k tr -k ntr:1,2``) finds it.
"""

from __future__ import annotations

from typing import Any


class Message(str):
    """An English text that can be translated later (see the module docstring)."""

    msgid: str
    plural: str | None
    count: int | None
    params: dict[str, Any]

    def __new__(
        cls,
        msgid: str,
        params: dict[str, Any] | None = None,
        plural: str | None = None,
        count: int | None = None,
    ) -> Message:
        params = dict(params or {})
        template = plural if plural is not None and count != 1 else msgid
        obj = super().__new__(cls, format_template(template, params, None))
        obj.msgid = msgid
        obj.plural = plural
        obj.count = count
        obj.params = params
        return obj

    def translate(self, lang: Any) -> str:  # type: ignore[override]
        """This text in ``lang`` (English when the catalogue has no translation).

        Given a translation table instead of a language (``str.translate``, which Rich calls
        to strip control characters), it does what ``str.translate`` does.
        """
        if lang is not None and not isinstance(lang, str):
            return str.translate(self, lang)
        if not lang or lang == "en":
            return self._english()
        from dedale.i18n.catalogue import lookup

        template = lookup(lang, self.msgid, self.plural, self.count)
        return format_template(template, self.params, lang)

    def _english(self) -> str:
        template = self.plural if self.plural is not None and self.count != 1 else self.msgid
        return format_template(template, self.params, "en")

    def __reduce__(self):  # pickling keeps the message translatable
        return (Message, (self.msgid, self.params, self.plural, self.count))


class Localised(Message):
    """A text given directly in each language (``{"en": ..., "fr": ...}``), not through the
    catalogue: a list of the book language's keywords (``expected `->`, `combat`...``)."""

    texts: dict[str, str]

    def __new__(cls, texts: dict[str, str]) -> Localised:  # type: ignore[override]
        obj = super().__new__(cls, texts["en"])
        obj.texts = dict(texts)
        return obj

    def translate(self, lang: Any) -> str:  # type: ignore[override]
        if lang is not None and not isinstance(lang, str):
            return str.translate(self, lang)
        return self.texts.get(lang or "en", self.texts["en"])

    def __reduce__(self):
        return (Localised, (self.texts,))


class Number(str):
    """A number in a message, written the way the reader's language writes it.

    ``number(0.125, ".1%")`` is ``12.5%`` in English and ``12,5 %`` (narrow no-break space)
    in French; ``number(12345, ",")`` is ``12,345`` / ``12 345``.
    """

    def __new__(cls, value: float, spec: str = "") -> Number:
        return super().__new__(cls, format(value, spec))

    def translate(self, lang: Any) -> str:  # type: ignore[override]
        """This number in ``lang`` (a ``str.translate`` table: what str.translate does)."""
        if lang is not None and not isinstance(lang, str):
            return str.translate(self, lang)
        text = str(self)
        if lang != "fr":
            return text
        text = text.replace(",", "\u202f").replace(".", ",")
        return text[:-1] + "\u202f%" if text.endswith("%") else text


def number(value: float, spec: str = "") -> Number:
    """``value`` formatted with ``spec`` (``".1%"``, ``","``), localised when translated."""
    return Number(value, spec)


def tr(msgid: str, /, **params: Any) -> Message:
    """A translatable text; ``params`` fill its ``{placeholders}``."""
    return Message(msgid, params)


def ntr(singular: str, plural: str, count: int, /, **params: Any) -> Message:
    """A translatable text with plural forms chosen by ``count`` (also given as ``{count}``)."""
    params.setdefault("count", count)
    return Message(singular, params, plural, count)


def translate(text: Any, lang: str | None) -> str:
    """``text`` in ``lang`` when it is a Message, else the text itself."""
    if isinstance(text, Message | Number):
        return text.translate(lang)
    return "" if text is None else str(text)


def format_template(template: str, params: dict[str, Any], lang: str | None) -> str:
    """``template`` filled with ``params`` (Message values shown in ``lang``); the template
    itself when a placeholder is missing or malformed, so a bad translation never crashes."""
    if not params:
        return template
    if lang is not None:
        params = {
            k: translate(v, lang) if isinstance(v, Message | Number) else v
            for k, v in params.items()
        }
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError):
        return template
