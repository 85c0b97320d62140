"""The author's prose as printed: light Markdown to styled runs, interpolations as words.

A printed book knows no hero, so every interpolation (``{name}``, ``{class}``, a stat or a
counter such as ``{STAMINA}``) is printed as a blank the reader fills in from the Adventure
Sheet ("________"): it reads right whatever words the author wrote around it ("You have
________ STAMINA"). A marked reference ``{§ 12}`` becomes a
:class:`~dedale.export.document.Ref` (renumbered with the book).
"""

from __future__ import annotations

import re

from dedale.export.document import Inline, Prose, Ref, Styled
from dedale.export.sentences_base import Voice, ref_marker, to_inlines
from dedale.i18n import french
from dedale.language.prose_refs import parse_prose_ref

_PLACEHOLDER = re.compile(r"\{([^{}\n]{1,60})\}")
_EMPHASIS = re.compile(r"(\*\*|__|\*|_|`)(?=\S)(.+?)(?<=\S)\1", re.DOTALL)
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
BLANK = "________"
_BLANK_MARK = "\ue004"  # the blank, kept apart from the Markdown's underscores


class ProseWriter(Voice):
    """Prose blocks of one paragraph in the book's language."""

    def blocks(self, text: str) -> list[Prose]:
        """One Prose block per paragraph of text (a blank line separates them)."""
        out = []
        for chunk in _BLANK_LINES.split(text.strip("\n")):
            joined = " ".join(line.strip() for line in chunk.splitlines() if line.strip())
            if joined:
                out.append(Prose(self.inlines(joined)))
        return out

    def inlines(self, text: str) -> tuple[Inline, ...]:
        """A line of prose as styled runs and references."""
        text = self.fill(text)
        if self.lang == "fr":
            text = french.typography(text)
        pieces: list[Inline] = []
        position = 0
        for found in _EMPHASIS.finditer(text):
            pieces.extend(to_inlines(text[position : found.start()]))
            mark, inner = found.group(1), found.group(2)
            for piece in to_inlines(inner):
                if isinstance(piece, Ref) or mark == "`":
                    pieces.append(piece)
                elif isinstance(piece, Styled):
                    pieces.append(Styled(piece.text, bold=mark in ("**", "__"), italic=True))
                else:
                    text_piece = piece.replace(_BLANK_MARK, BLANK)
                    bold = mark in ("**", "__")
                    pieces.append(Styled(text_piece, bold=bold, italic=mark in ("*", "_")))
            position = found.end()
        pieces.extend(to_inlines(text[position:]))
        return tuple(_merge(pieces))

    def fill(self, text: str) -> str:
        """Interpolations replaced by the printed book's words; ``{{``/``}}`` by braces."""
        if "{" not in text:
            return text
        guarded = text.replace("{{", "\x00").replace("}}", "\x01")
        filled = _PLACEHOLDER.sub(lambda m: self.placeholder(m.group(1).strip()), guarded)
        return filled.replace("\x00", "{").replace("\x01", "}")

    def placeholder(self, name: str) -> str:
        reference = parse_prose_ref(name)
        if reference is not None:
            number = reference.number
            if number is None and reference.label is not None:
                number = self.book.label_number(reference.label)
            return ref_marker(number) if number is not None else name
        return _BLANK_MARK  # the hero's name or class, a stat or a counter: the reader's own


def _merge(pieces: list[Inline]) -> list[Inline]:
    """Adjacent plain texts joined; empty texts dropped."""
    out: list[Inline] = []
    for piece in pieces:
        if isinstance(piece, str):
            piece = piece.replace(_BLANK_MARK, BLANK)
            if not piece:
                continue
            if out and isinstance(out[-1], str):
                out[-1] = out[-1] + piece
                continue
        out.append(piece)
    return out
