"""Usage errors in the user's language: Python's argparse says "unrecognized arguments" and
"invalid choice" in English; a French author gets them in French.

The language is the one any other error of the command would be told in: ``--lang``, else
the language the book on the command line declares, else the environment's (``LC_ALL``,
``LC_MESSAGES``, ``LANG``). Only the messages of a usage error are translated: ``--help``
stays in English as a whole rather than mixing its English descriptions with French
headings.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from dedale.i18n import Message, tr, translate


def _messages() -> dict[str, Message]:
    """argparse's error messages (its msgids, %-placeholders kept) in the catalogue."""
    return {
        "%(prog)s: error: %(message)s\n": tr("%(prog)s: error: %(message)s\n"),
        "ambiguous option: %(option)s could match %(matches)s": tr(
            "ambiguous option: %(option)s could match %(matches)s"
        ),
        "argument %(argument_name)s: %(message)s": tr("argument %(argument_name)s: %(message)s"),
        "can't open '%(filename)s': %(error)s": tr("can't open '%(filename)s': %(error)s"),
        "expected at least one argument": tr("expected at least one argument"),
        "expected at most one argument": tr("expected at most one argument"),
        "expected one argument": tr("expected one argument"),
        "expected %s argument": tr("expected %s argument"),
        "expected %s arguments": tr("expected %s arguments"),
        "ignored explicit argument %r": tr("ignored explicit argument %r"),
        "invalid %(type)s value: %(value)r": tr("invalid %(type)s value: %(value)r"),
        "invalid choice: %(value)r (choose from %(choices)s)": tr(
            "invalid choice: %(value)r (choose from %(choices)s)"
        ),
        "not allowed with argument %s": tr("not allowed with argument %s"),
        "one of the arguments %s is required": tr("one of the arguments %s is required"),
        "the following arguments are required: %s": tr("the following arguments are required: %s"),
        "unrecognized arguments: %s": tr("unrecognized arguments: %s"),
    }


def environment_language(environ: Mapping[str, str]) -> str | None:
    """``fr`` or ``en`` from the first locale variable set, or None."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return "fr" if value.lower().startswith("fr") else "en"
    return None


def usage_language(words: Sequence[str], environ: Mapping[str, str]) -> str | None:
    """The language of a usage error for the command line ``words``."""
    for index, word in enumerate(words):
        if word == "--lang" and index + 1 < len(words):
            return words[index + 1] if words[index + 1] in ("fr", "en") else None
        if word.startswith("--lang="):
            value = word.partition("=")[2]
            return value if value in ("fr", "en") else None
    for word in words:
        if word.startswith("-"):
            continue
        is_book = os.path.isfile(os.path.join(word, "book.yaml")) or (
            word.endswith(".dd") and os.path.isfile(word)
        )
        if is_book:
            from dedale.validator.report.language import declared_language

            return declared_language(word)
    return environment_language(environ)


@contextmanager
def usage_messages(words: Sequence[str], environ: Mapping[str, str]) -> Iterator[None]:
    """While parsing ``words``: argparse's error messages in the language of the command
    (found only when one is needed: a command that parses costs nothing more)."""
    messages = _messages()
    found: list[str | None] = []
    plain_gettext, plain_ngettext = argparse._, argparse.ngettext  # type: ignore[attr-defined]

    def told(text: str) -> str | None:
        if text not in messages:
            return None
        if not found:
            found.append(usage_language(words, environ))
        lang = found[0]
        return None if lang in (None, "en") else translate(messages[text], lang)

    def gettext(text: str) -> str:
        return told(text) or plain_gettext(text)

    def ngettext(singular: str, plural: str, count: int) -> str:
        return told(singular if count == 1 else plural) or plain_ngettext(singular, plural, count)

    argparse._ = gettext  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
    try:
        yield
    finally:
        argparse._, argparse.ngettext = plain_gettext, plain_ngettext  # type: ignore[attr-defined]
