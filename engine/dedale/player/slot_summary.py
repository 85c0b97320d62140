"""What a save slot shows in the save and load lists: the paragraph, the hero, the date and
time of the save, and a short description (the paragraph's label, or its first words).

A save is untrusted input: it is read by :func:`dedale.saves.read_save` (bounded, checked);
a file that does not read is shown as unreadable, never as an error here (loading it says
why, at its position).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from rich.markup import escape

from dedale.book import Book
from dedale.errors import DedaleError
from dedale.player.texts import Texts
from dedale.saves import read_save

DESCRIPTION_WORDS = 8  # the first words of a paragraph that has no label
_MARKS = re.compile(r"[*_`#>{}\[\]]")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class SlotSummary:
    """One saved game as the slot lists show it; ``readable`` False for a broken file."""

    paragraph: int | None = None
    hero: str = ""
    saved_at: datetime | None = None
    description: str = ""
    readable: bool = True


def read_summary(path: Path, book: object) -> SlotSummary | None:
    """The summary of the save in ``path`` (None when there is none)."""
    if not path.is_file():
        return None
    try:
        saved_at: datetime | None = datetime.fromtimestamp(path.stat().st_mtime)
    except (OSError, OverflowError, ValueError):
        saved_at = None
    try:
        data = read_save(path)
    except DedaleError:
        return SlotSummary(saved_at=saved_at, readable=False)
    number = data.state.get("paragraph")
    number = number if type(number) is int else None
    name = data.state.get("name")
    hero = name if isinstance(name, str) else ""
    return SlotSummary(number, hero, saved_at, describe_paragraph(book, number))


def describe_paragraph(book: object, number: int | None) -> str:
    """The paragraph's label, else the first words of its text ("The rope snaps and…")."""
    if number is None or not isinstance(book, Book):
        return ""
    paragraph = book.paragraphs.get(number)
    if paragraph is None:
        return ""
    if paragraph.label:
        return paragraph.label
    for statement in paragraph.body:
        text = getattr(statement, "text", None)
        if type(statement).__name__ == "Prose" and isinstance(text, str) and text.strip():
            words = _SPACES.sub(" ", _MARKS.sub("", text)).strip().split(" ")
            first = " ".join(words[:DESCRIPTION_WORDS])
            return first + ("…" if len(words) > DESCRIPTION_WORDS else "")
    return ""


def slot_label(name: str, summary: SlotSummary | None, texts: Texts) -> str:
    """Two lines of markup: "Slot 1 — § 12 · Ari", then the date and the description."""
    if summary is None:
        return f"{escape(name)} ({texts('saves.empty')})"
    if not summary.readable:
        return f"{escape(name)} ({texts('saves.unreadable')})"
    head = [escape(name)]
    if summary.paragraph is not None:
        head.append(texts("app.paragraph", number=summary.paragraph))
    if summary.hero:
        head.append(escape(summary.hero))
    details = []
    if summary.saved_at is not None:
        date_format = texts("saves.date_format")
        time = summary.saved_at.strftime("%H:%M")
        details.append(
            texts("saves.saved_at", date=summary.saved_at.strftime(date_format), time=time)
        )
    if summary.description:
        details.append(escape(summary.description))
    first = f"{head[0]} — {' · '.join(head[1:])}" if len(head) > 1 else head[0]
    return first + (f"\n   [dim]{' · '.join(details)}[/dim]" if details else "")
