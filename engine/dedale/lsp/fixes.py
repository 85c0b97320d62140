"""The one obvious fix of a finding, when it has one: a did-you-mean, a missing ``>``.

A fix is a plain dict (it travels in the diagnostic's ``data`` and comes back with the
code action request): ``{"title", "line", "start", "end", "text"}``, 0-based, one line.
"""

from __future__ import annotations

import difflib
import re

from dedale.i18n import tr, translate
from dedale.language.keywords import fold
from dedale.validator.findings import Finding

_SUGGESTION = re.compile(r"did you mean [`'(]([^`'()]{1,80})[`')]")
_WORD = re.compile(r"[\w'’-]+")
MAX_LINE = 2_000


def fix_for(item: Finding, lines: list[str], lang: str) -> dict | None:
    """The fix of ``item`` in the file whose ``lines`` are given, or None."""
    if item.span is None:
        return None
    line = item.span.line - 1
    if not 0 <= line < len(lines) or len(lines[line]) > MAX_LINE:
        return None
    text = lines[line]
    if item.code == "W061":
        indent = len(text) - len(text.lstrip())
        title = translate(tr("Make it a rule line: add `>`"), lang)
        return {"title": title, "line": line, "start": indent, "end": indent, "text": "> "}
    for source in (item.hint, item.message):
        found = _SUGGESTION.search(str(source or ""))
        if found:
            return _replace(found.group(1), text, line, item.span.column - 1, lang)
    return None


def _replace(name: str, text: str, line: int, column: int, lang: str) -> dict | None:
    """Replace the run of words nearest ``column`` that is close to ``name``."""
    words = list(_WORD.finditer(text))
    size = max(1, len(name.split()))
    target = fold(name).casefold()
    windows = []
    for first in range(len(words)):
        if words[first].end() <= column:
            continue
        last = min(len(words), first + size) - 1
        windows.append((words[first].start(), words[last].end()))
    for start, end in windows:  # nearest the finding's column first
        written = text[start:end]
        ratio = difflib.SequenceMatcher(None, fold(written).casefold(), target).ratio()
        if ratio >= 0.6:
            if written == name:
                return None
            title = translate(tr("Replace with `{name}`", name=name), lang)
            return {"title": title, "line": line, "start": start, "end": end, "text": name}
    return None
