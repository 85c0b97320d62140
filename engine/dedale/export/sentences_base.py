"""What every sentence writer shares: the book's language, names, and inline markers.

A sentence is built as a string in the book's language where each paragraph reference is a
private-use marker (``\\ue000 12 \\ue001``); :func:`to_inlines` splits it into the
Document's pieces (text and :class:`~dedale.export.document.Ref`), so that a translated
sentence may put the number wherever its language wants it.
"""

from __future__ import annotations

import re
from typing import Any

from dedale.export.document import Inline, Ref, Styled
from dedale.i18n import french
from dedale.i18n.text import Message

_REF_OPEN, _REF_CLOSE = "\ue000", "\ue001"
_ITALIC_OPEN, _ITALIC_CLOSE = "\ue002", "\ue003"
_MARKERS = re.compile("\ue000(\\d{1,9})\ue001|\ue002([^\ue002\ue003]*)\ue003")


def ref_marker(number: int) -> str:
    """A paragraph reference inside a sentence under construction."""
    return f"{_REF_OPEN}{number}{_REF_CLOSE}"


def italic_marker(text: str) -> str:
    """A name printed in italics (an item, a codeword) inside a sentence."""
    return f"{_ITALIC_OPEN}{text}{_ITALIC_CLOSE}"


def to_inlines(text: str) -> tuple[Inline, ...]:
    """A sentence with markers -> its inlines (adjacent texts merged)."""
    pieces: list[Inline] = []
    position = 0
    for found in _MARKERS.finditer(text):
        if found.start() > position:
            pieces.append(text[position : found.start()])
        if found.group(1) is not None:
            pieces.append(Ref(int(found.group(1))))
        else:
            pieces.append(Styled(found.group(2), italic=True))
        position = found.end()
    if position < len(text):
        pieces.append(text[position:])
    return tuple(pieces)


def sentence(clause: str) -> str:
    """A clause as a whole sentence: a capital first letter and a final full stop."""
    clause = clause.strip()
    if not clause:
        return clause
    clause = french.capitalise(clause)
    return clause if clause[-1] in ".!?…»" else clause + "."


class Voice:
    """The book's language and ruleset, to say names and messages as the book would."""

    def __init__(self, book: Any) -> None:
        self.book = book
        self.lang: str = book.meta.language if book.meta.language in ("fr", "en") else "en"
        self.ruleset = book.ruleset
        creation = getattr(book.meta, "creation", None)
        self.hero_e = "e" if getattr(creation, "gender", None) == "f" else ""

    def say(self, message: Message) -> str:
        """A message of the code in the book's language; French sentences about the hero
        agree with the book's heroine (``creation: gender: f``: ``{hero_e}`` is "e")."""
        if self.lang == "fr" and "hero_e" not in message.params:
            params = {**message.params, "hero_e": self.hero_e}
            message = Message(message.msgid, params, message.plural, message.count)
        return message.translate(self.lang)

    def stat(self, name: str) -> str:
        """A stat or counter's printed name (``HABILETÉ``), else the name as written."""
        ident = self.book.stat_id(name) if self.ruleset is not None else None
        return self.ruleset.display_name(ident, self.lang) if ident else name

    def counted(self, name: str, amount: int) -> str:
        """A counter's name after an amount ("1 Pièce d'or", "3 Repas")."""
        ident = self.book.stat_id(name) if self.ruleset is not None else None
        if ident is None:
            return name
        return self.ruleset.counted_name(ident, amount, self.lang)

    def of(self, phrase: str) -> str:
        """French "de" before a name (``d'ENDURANCE``); English: the name itself."""
        return french.of(phrase) if self.lang == "fr" else phrase

    def join(self, clauses: list[str]) -> str:
        """Clauses joined as one ("a, b et c" / "a, b and c")."""
        return french.join([c for c in clauses if c], self.lang)

    def is_book_counter(self, name: str) -> bool:
        """Whether ``name`` is a counter the book declares (book.yaml ``state:``), which the
        reader keeps in a box of its own."""
        if self.ruleset is not None and self.book.stat_id(name) is not None:
            return False
        state = getattr(self.book.meta, "state", None)
        return state is not None and state.counter(name) is not None

    def is_counter(self, name: str) -> bool:
        """Whether ``name`` is a counter of the ruleset (gold, meals) rather than a stat."""
        return self.ruleset is not None and self.book.kind_of(name) == "counter"
