"""Author text in Typst markup, escaped: no character of a book is ever read as markup.

Every text goes into a Typst *string literal* (``#"..."``), where only ``\\`` and ``"`` mean
something, so markup characters (``# * _ [ ] $ @ < > ` = - + / ~``) and Typst code in a
book print as themselves. Whitespace runs become one space (the printed book sets its own
lines) and control characters are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Container

from dedale.export.document import Inline, Ref, Styled

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")
_SPACES = re.compile(r"\s+")


def string(text: str) -> str:
    """``text`` as a Typst string literal (code mode), whitespace folded."""
    clean = _SPACES.sub(" ", _CONTROL.sub("", text))
    return '"' + clean.replace("\\", "\\\\").replace('"', '\\"') + '"'


def text(text: str) -> str:
    """``text`` as markup that prints it verbatim (empty for no text)."""
    return f"#{string(text)}" if text else ""


def inline(piece: Inline, known: Container[int] | None = None) -> str:
    """One piece of a line: plain, bold/italic, or a reference in bold as the printed series
    set them (a PDF link to its section, when ``known``, the section numbers, holds it)."""
    if isinstance(piece, Ref):
        number = int(piece.number)
        linked = known is None or number in known
        return f"#dd-ref({number})" if linked else f"#strong({string(str(number))})"
    if isinstance(piece, Styled):
        body = string(piece.text)
        if piece.bold:
            body = f"strong({body})"
        if piece.italic:
            body = f"emph({body})"
        return f"#{body}"
    return text(piece)


def inlines(pieces: tuple[Inline, ...], known: Container[int] | None = None) -> str:
    """A line of pieces, each its own ``#`` expression (so one never continues another)."""
    return "".join(inline(piece, known) for piece in pieces if piece != "")
