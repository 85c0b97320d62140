"""French typography for the French catalogue: the spaces a French text needs.

A narrow no-break space (U+202F) before ``; ! ?``, a no-break space (U+00A0) before ``:``
and inside « guillemets ». ``french_typography(text) == text`` is what the catalogue test
checks on every French msgstr.
"""

from __future__ import annotations

import re

NARROW = "\u202f"
NBSP = "\u00a0"

_HIGH = re.compile(r"(?<=\S)[ \u00a0\u202f]?([;!?])(?!=)")  # not the "!=" operator
_COLON = re.compile(r"(?<=\S)[ \u00a0\u202f]?:(?=\s|$)")  # not "12:30", "{x:.1%}", "http://"
_OPEN = re.compile(r"«[ \u00a0\u202f]*")
_CLOSE = re.compile(r"[ \u00a0\u202f]*»")


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")  # {name}, {value!r}, {x:.1%}: left as they are


def french_typography(text: str) -> str:
    """``text`` with the no-break spaces of French typography (placeholders untouched)."""
    kept: list[str] = []

    def hide(match: re.Match[str]) -> str:
        kept.append(match.group(0))
        return f"\x00{len(kept) - 1}\x00"

    text = _PLACEHOLDER.sub(hide, text)
    text = _HIGH.sub(NARROW + r"\1", text)
    text = _COLON.sub(NBSP + ":", text)
    text = _OPEN.sub("«" + NBSP, text)
    text = _CLOSE.sub(NBSP + "»", text)
    return re.sub("\x00(\\d+)\x00", lambda m: kept[int(m.group(1))], text)
