"""What the player reads from a Book: title, author, language, ruleset names and texts.

The Book (``dedale.book``) and its Ruleset (``dedale.rules``) belong to the language and
rules packages; this module is the one place the player looks at them. Before the book is
loaded, the title screen is drawn from a ``BookPreview`` (book.yaml only, no ruleset).
"""

from __future__ import annotations

from dataclasses import dataclass

from dedale.book import Book
from dedale.player.preview import BookPreview
from dedale.player.session import SheetLayout
from dedale.rules.ruleset import Ruleset
from dedale.span import Span


@dataclass(frozen=True)
class ClassInfo:
    """A character class as the creation screen shows it."""

    name: str
    description: str = ""
    kit: tuple[str, ...] = ()


class BookView:
    """Read-only facts about the book being played (or its preview while it loads)."""

    def __init__(self, book: Book | BookPreview) -> None:
        self.book = book
        self.ruleset: Ruleset | None = book.ruleset if isinstance(book, Book) else None

    @property
    def title(self) -> str:
        title = self.book.meta.title if isinstance(self.book, Book) else self.book.title
        return title or "Dédale"

    @property
    def author(self) -> str:
        return self.book.meta.author if isinstance(self.book, Book) else self.book.author

    @property
    def language(self) -> str | None:
        lang = self.book.meta.language if isinstance(self.book, Book) else self.book.language
        return lang or None

    @property
    def identity(self) -> str:
        """A name safe to use in file names (saves are kept per book)."""
        ident = self.book.root.name if isinstance(self.book, Book) else ""
        ident = ident or self.title
        return "".join(c if c.isalnum() or c in "-_" else "-" for c in ident).strip("-")

    def ruleset_title(self, lang: str) -> str | None:
        """The ruleset's own title in ``lang`` (its ``title:``), or None."""
        if self.ruleset is None or not self.ruleset.title:
            return None
        title = self.ruleset.title
        return title.get(lang) or title.get("en") or next(iter(title.values()))

    def outcome_word(self, test_id: str, outcome: str, lang: str) -> str | None:
        """The ruleset's own word for a test outcome, or None."""
        if self.ruleset is None:
            return None
        return self.ruleset.outcome_name(test_id, outcome, lang)

    def stat_name(self, stat_id: str, lang: str) -> str:
        """The ruleset's display name for a stat (``SKILL`` -> ``HABILETÉ`` in French)."""
        if self.ruleset is None:
            return stat_id
        return self.ruleset.display_name(stat_id, lang)

    def sheet_layout(self) -> SheetLayout:
        """The ruleset's stats and counters (ids, in its order), Worlds and meal counter."""
        ruleset = self.ruleset
        if ruleset is None:
            return SheetLayout()
        return SheetLayout(
            stats=tuple(stat.id for stat in ruleset.stats),
            counters=tuple(counter.id for counter in ruleset.counters),
            worlds=ruleset.worlds,
            meal_counter=ruleset.meals.counter if ruleset.meals is not None else None,
            meal_stat=ruleset.meals.stat if ruleset.meals is not None else None,
            health=getattr(ruleset.fight, "health", None) if ruleset.health_levels else None,
            health_levels=ruleset.health_levels,
            book_state=self.book.meta.state if isinstance(self.book, Book) else None,
        )

    def classes(self, lang: str = "en") -> dict[str, ClassInfo]:
        """The ruleset's character classes (by id and by shown name), description and kit."""
        if self.ruleset is None:
            return {}
        result: dict[str, ClassInfo] = {}
        for class_id, info in self.ruleset.classes.items():
            shown = _in_language(info.names, lang) or class_id
            entry = ClassInfo(shown, _in_language(info.description, lang), tuple(info.kit))
            result[class_id] = entry
            result.setdefault(shown, entry)
        return result

    def creation_roll(self, stat_id: str, class_id: str | None = None) -> str | None:
        """The dice expression a stat is rolled with at creation (the class's, if any)."""
        if self.ruleset is None:
            return None
        chosen = self.ruleset.classes.get(class_id) if class_id else None
        if chosen is not None and chosen.stats.get(stat_id) is not None:
            return str(chosen.stats[stat_id])
        for stat in self.ruleset.stats:
            if stat.id == stat_id and stat.roll is not None:
                return str(stat.roll)
        return None

    def paragraph_span(self, number: int | None) -> Span | None:
        """Where a paragraph is written (playtest mode shows it)."""
        if number is None or not isinstance(self.book, Book):
            return None
        paragraph = self.book.paragraphs.get(number)
        return paragraph.span if paragraph is not None else None


def _in_language(texts: dict[str, str], lang: str) -> str:
    """A text given per language (``{fr: ..., en: ...}``): ``lang``'s, else the first."""
    return texts.get(lang) or next(iter(texts.values()), "")
