"""The printable Adventure Sheet: the ruleset's stats and counters, the book's own state,
boxes for equipment, codewords and notes, and empty enemy encounter boxes."""

from __future__ import annotations

from typing import Any

from dedale import ast
from dedale.export.document import AdventureSheet, SheetBox
from dedale.export.sentences_base import Voice
from dedale.i18n import tr


def adventure_sheet(book: Any) -> AdventureSheet:
    """The Feuille d'Aventure of this book (stats with an initial box, then the rest)."""
    voice = Voice(book)
    say, lang, ruleset = voice.say, voice.lang, book.ruleset
    boxes: list[SheetBox] = []
    if ruleset is not None:
        boxes.extend(
            SheetBox(ruleset.display_name(stat.id, lang), 1, initial=stat.roll is not None)
            for stat in ruleset.stats
        )
        if ruleset.classes:
            boxes.append(SheetBox(say(tr("Class"))))
        boxes.extend(SheetBox(ruleset.display_name(c.id, lang)) for c in ruleset.counters)
    state = book.meta.state
    boxes.extend(SheetBox(entry.display) for entry in state.counters if entry.sheet != "none")
    boxes.extend(SheetBox(entry.display) for entry in state.flags if entry.sheet != "none")
    limit = ruleset.inventory_limit if ruleset is not None else None
    boxes.append(SheetBox(say(tr("Equipment")), lines=max(8, limit or 0)))
    used = statement_kinds(book)
    if ast.SetCodeword in used:
        boxes.append(SheetBox(say(tr("Codewords")), lines=4))
    if ast.StatusOn in used:
        boxes.append(SheetBox(say(tr("Ongoing effects")), lines=3))
    if ast.NoteParagraph in used:
        boxes.append(SheetBox(say(tr("Noted paragraphs")), lines=3))
    boxes.append(SheetBox(say(tr("Notes")), lines=4))
    return AdventureSheet(
        title=say(tr("Adventure Sheet")),
        boxes=tuple(boxes),
        encounter_label=say(tr("Encounter Box")),
        encounter_stats=_encounter_stats(book, voice),
        encounters=12,
    )


def statement_kinds(book: Any) -> set[type]:
    """The statement kinds the book's paragraphs use (bounded walk through bodies)."""
    found: set[type] = set()
    pending: list[Any] = [stmt for p in book.paragraphs.values() for stmt in p.body]
    steps = 0
    while pending and steps < 1_000_000:
        steps += 1
        stmt = pending.pop()
        found.add(type(stmt))
        for name in ("then", "otherwise", "effects", "wrong", "body"):
            children = getattr(stmt, name, ())
            if isinstance(children, tuple):
                pending.extend(child for child in children if hasattr(child, "span"))
        pending.extend(getattr(stmt, "branches", ()) or ())
    return found


def _encounter_stats(book: Any, voice: Voice) -> tuple[str, ...]:
    """The stats an encounter box holds: those the book's enemies are given, in the ruleset's
    order (else the fight's attack stat and health)."""
    seen: list[str] = []
    for paragraph in book.paragraphs.values():
        for stmt in paragraph.body:
            if isinstance(stmt, ast.Fight):
                for foe in stmt.enemies:
                    for key, _ in foe.stats:
                        shown = voice.stat(key)
                        if shown not in seen:
                            seen.append(shown)
    if seen:
        return tuple(seen)
    fight = getattr(book.ruleset, "fight", None)
    names = [getattr(fight, "attack_stat", None), getattr(fight, "health", None)]
    return tuple(voice.stat(name) for name in names if name)
