"""What the player reads from a Book: title, author, language, ruleset names and texts.

The Book and its Ruleset belong to the language and rules packages; this module is the one
place the player looks at them, so the screens stay independent of their exact shape.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from dedale.player.session import SheetLayout
from dedale.span import Span


@dataclass(frozen=True)
class ClassInfo:
    """A character class as the creation screen shows it."""

    name: str
    description: str = ""
    kit: tuple[str, ...] = ()


class BookView:
    """Read-only facts about the book being played."""

    def __init__(self, book: object) -> None:
        self.book = book

    @property
    def ruleset(self) -> Any:
        return getattr(self.book, "ruleset", None)

    def _meta(self, *names: str) -> Any:
        for holder in (
            self.book,
            getattr(self.book, "meta", None),
            getattr(self.book, "metadata", None),
        ):
            for name in names:
                if isinstance(holder, Mapping) and holder.get(name) is not None:
                    return holder[name]
                value = getattr(holder, name, None) if holder is not None else None
                if value is not None:
                    return value
        return None

    @property
    def title(self) -> str:
        return str(self._meta("title") or "Dédale")

    @property
    def author(self) -> str:
        author = self._meta("author", "authors")
        if isinstance(author, list | tuple):
            return ", ".join(str(a) for a in author)
        return str(author or "")

    @property
    def language(self) -> str | None:
        lang = self._meta("lang", "language")
        return str(lang) if lang else None

    @property
    def identity(self) -> str:
        """A name safe to use in file names (saves are kept per book)."""
        ident = self._meta("id", "slug") or getattr(getattr(self.book, "root", None), "name", None)
        ident = ident or self.title
        return "".join(c if c.isalnum() or c in "-_" else "-" for c in str(ident)).strip("-")

    def outcome_word(self, test_id: str, outcome: str, lang: str) -> str | None:
        """The ruleset's own word for a test outcome, or None."""
        return self.ruleset.outcome_name(test_id, outcome, lang) if self.ruleset else None

    def stat_name(self, stat_id: str, lang: str) -> str:
        """The ruleset's display name for a stat (``SKILL`` -> ``HABILETÉ`` in French)."""
        display = getattr(self.ruleset, "display_name", None)
        if callable(display):
            try:
                return str(display(stat_id, lang))
            except Exception:  # noqa: BLE001 - an unknown id keeps its own name
                return stat_id
        return stat_id

    def sheet_layout(self) -> SheetLayout:
        """The ruleset's stats and counters (ids, in its order), Worlds and meal counter."""
        ruleset = self.ruleset
        if ruleset is None:
            return SheetLayout()
        return SheetLayout(
            stats=tuple(stat.id for stat in ruleset.stats),
            counters=tuple(counter.id for counter in ruleset.counters),
            worlds=bool(ruleset.worlds),
            meal_counter=ruleset.meals.counter if ruleset.meals is not None else None,
            meal_stat=ruleset.meals.stat if ruleset.meals is not None else None,
        )

    def classes(self, lang: str = "en") -> dict[str, ClassInfo]:
        """The ruleset's character classes (by id and by shown name), description and kit."""
        found = getattr(self.ruleset, "classes", None)
        if isinstance(found, Mapping):
            entries = list(found.items())
        elif isinstance(found, Iterable) and not isinstance(found, str):
            entries = [(getattr(c, "name", str(c)), c) for c in found]
        else:
            return {}
        result: dict[str, ClassInfo] = {}
        for name, info in entries:
            description = _in_language(_get(info, "description"), lang)
            kit = _get(info, "kit") or ()
            kit_names = tuple(str(_get(k, "name") or _get(k, "item") or k) for k in kit)
            shown = _in_language(_get(info, "names"), lang) or str(name)
            entry = ClassInfo(shown, description, kit_names)
            result[str(name)] = entry
            result.setdefault(shown, entry)
        return result

    def creation_roll(self, stat_id: str, class_id: str | None = None) -> str | None:
        """The dice expression a stat is rolled with at creation (the class's, if any)."""
        classes = getattr(self.ruleset, "classes", None)
        if class_id and isinstance(classes, Mapping) and class_id in classes:
            rolls = _get(classes[class_id], "stats")
            if isinstance(rolls, Mapping) and rolls.get(stat_id) is not None:
                return str(rolls[stat_id])
        for stat in getattr(self.ruleset, "stats", None) or ():
            if getattr(stat, "id", None) == stat_id and getattr(stat, "roll", None) is not None:
                return str(stat.roll)
        return None

    def rules_summary(self, lang: str) -> str | None:
        """The ruleset's own summary for players, if it has one."""
        for name in ("summary", "player_summary", "description"):
            value = getattr(self.ruleset, name, None)
            if callable(value):
                try:
                    value = value(lang)
                except TypeError:
                    value = None
            if isinstance(value, Mapping):
                value = value.get(lang) or next(iter(value.values()), None)
            if isinstance(value, str) and value.strip():
                return value
        return None

    def paragraph_span(self, number: int | None) -> Span | None:
        """Where a paragraph is written (playtest mode shows it)."""
        if number is None:
            return None
        paragraphs = getattr(self.book, "paragraphs", None)
        paragraph = None
        if isinstance(paragraphs, Mapping):
            paragraph = paragraphs.get(number)
        getter = getattr(self.book, "paragraph", None)
        if paragraph is None and callable(getter):
            try:
                paragraph = getter(number)
            except Exception:  # noqa: BLE001 - unknown paragraph: no span
                paragraph = None
        span = getattr(paragraph, "span", None)
        return span if isinstance(span, Span) else None


def _get(obj: object, name: str) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(name)
    return getattr(obj, name, None)


def _in_language(value: object, lang: str) -> str:
    """A text that may be given per language (``{fr: ..., en: ...}``)."""
    if isinstance(value, Mapping):
        return str(value.get(lang) or next(iter(value.values()), ""))
    return str(value) if value else ""
