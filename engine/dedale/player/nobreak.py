"""No line break at a no-break space, in everything Textual and Rich wrap.

French typography puts a no-break space before ``:`` and inside « » (and a narrow one before
``; ! ?``) so that no line starts with ":" and no « is left at a line's end
(:func:`dedale.i18n.french.typography`). Unicode's line breaking (UAX #14, class GL) never
breaks there, but Rich's word splitter, which Textual's text wrapping uses too, splits at
any ``\\s`` — U+00A0 and U+202F included. :func:`install` gives that splitter a word pattern
that keeps the no-break spaces inside words (the same pattern otherwise), once, for the
Textual player. A Rich without that splitter is left as it is.
"""

from __future__ import annotations

import re

NO_BREAK = "\u00a0\u2007\u202f"  # no-break, figure and narrow no-break spaces
# Rich's own pattern is r"\s*\S+\s*": a word and the spaces around it
WORD = re.compile(rf"[^\S{NO_BREAK}]*(?:\S|[{NO_BREAK}])+[^\S{NO_BREAK}]*")


def install() -> bool:
    """Make Rich's (and so Textual's) wrapping keep no-break spaces; True when done."""
    try:
        from rich import _wrap
    except ImportError:  # pragma: no cover - Rich is a dependency
        return False
    if not hasattr(_wrap, "re_word"):
        return False
    _wrap.re_word = WORD
    return True
