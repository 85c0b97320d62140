"""The language a report speaks: the book's ``language:`` (``--lang`` overrides it).

A book that loaded carries its language; for one that did not, :func:`declared_language`
reads the ``language:`` (or ``langue:``) line of its book.yaml or front matter, without
parsing the rest, so that a French author's broken book is still answered in French.
Numbers and percentages are written the way the language writes them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from dedale.i18n import LANGUAGES

DEFAULT_LANGUAGE = "fr"  # the loader's default when book.yaml says nothing
_SNIFF_BYTES = 64 * 1024
_LINE = re.compile(r"^(?:language|langue)\s*:\s*['\"]?([A-Za-z]{2})\b", re.MULTILINE)


def declared_language(path: str | Path) -> str:
    """The language a book folder's book.yaml (or a ``.dd`` file's front matter) declares."""
    path = Path(path)
    source = path / "book.yaml" if path.is_dir() else path
    try:
        if source.is_symlink() or not source.is_file():  # no FIFO, device or outside link
            return DEFAULT_LANGUAGE
        with open(source, "rb") as handle:
            text = handle.read(_SNIFF_BYTES).decode("utf-8", errors="replace").lstrip("\ufeff")
    except OSError:
        return DEFAULT_LANGUAGE
    if not path.is_dir():  # only the front matter of a single-file book
        text = text.split("\n---", 1)[0] if text.startswith("---") else ""
    found = _LINE.search(text)
    lang = found.group(1).lower() if found else DEFAULT_LANGUAGE
    return lang if lang in LANGUAGES else DEFAULT_LANGUAGE


def common_language(languages: Iterable[str | None]) -> str:
    """The one language of several books, else English."""
    found = {lang or "en" for lang in languages}
    return found.pop() if len(found) == 1 else "en"


def report_language(reports: Sequence[object]) -> str:
    """The language of the parts of a report that are about every book (the summary)."""
    return common_language(getattr(report, "lang", None) for report in reports)


def percent(value: float, lang: str | None, digits: int = 1) -> str:
    """``12.5%`` in English, ``12,5 %`` in French."""
    text = f"{value:.{digits}%}"
    if lang == "fr":
        text = text[:-1].replace(".", ",") + "\u202f%"
    return text


def number(value: float, lang: str | None, digits: int = 1) -> str:
    """``3.5`` / ``1,234`` in English; ``3,5`` / ``1 234`` in French."""
    text = f"{value:,.{digits}f}" if digits else f"{value:,.0f}"
    if lang == "fr":
        text = text.replace(",", "\u202f").replace(".", ",")
    return text
