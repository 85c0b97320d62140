"""book.yaml's ``state:`` / ``état:`` section: the flags and counters a book declares.

A *flag* is a yes/no fact about the hero's story (``calf following``, ``met lieutenant``),
a *counter* a number of them (``lieutenants met``). Both are the book's own, not the
ruleset's: the author names them, gives each a display name in the book's language and
says whether and where the Adventure Sheet shows it::

    state:
      flags:
        calf following: {name: The calf follows you, sheet: notes}
        met lieutenant: {sheet: no}
      counters:
        lieutenants met: {name: Lieutenants met, sheet: stats, start: 0, max: 3}

A flag or counter may also be listed without settings (``flags: [met lieutenant]``).
Names are compared like paragraph labels (no accents, any case, any spacing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dedale.errors import BookMetadataError, DedaleError
from dedale.i18n import tr
from dedale.language.keywords import name_key
from dedale.language.meta_keys import KeySet, norm
from dedale.span import Span

MAX_ENTRIES = 500  # flags and counters together
MAX_VALUE = 1_000_000
MAX_NAME = 100  # characters of a flag's or counter's name (saves keep names up to 200)
SHEET_PLACES = ("stats", "notes", "none")

SECTION_KEYS = KeySet(
    {
        "flags": ("drapeaux", ("marques", "faits")),
        "counters": ("compteurs", ("comptes",)),
    }
)
ENTRY_KEYS = KeySet(
    {
        "name": ("nom", ("affichage",)),
        "sheet": ("feuille", ("fiche",)),
        "start": ("départ", ("initial", "initiale", "debut")),
        "max": ("max", ("maximum",)),
    }
)
SHEET_VALUES = {
    "stats": "stats", "caracteristiques": "stats", "haut": "stats", "top": "stats",
    "notes": "notes", "yes": "notes", "oui": "notes", "true": "notes", "vrai": "notes",
    "none": "none", "no": "none", "non": "none", "false": "none", "faux": "none",
    "hidden": "none", "cache": "none", "cachee": "none", "aucune": "none",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class StateEntry:
    """One declared flag or counter: its name as written, display name, sheet place."""

    name: str
    display: str
    sheet: str = "notes"  # stats / notes / none
    start: int = 0
    maximum: int | None = None
    span: Span = field(default_factory=lambda: Span("book.yaml", 1, 1), compare=False)

    @property
    def key(self) -> str:
        return name_key(self.name)


@dataclass(frozen=True, slots=True)
class BookState:
    """The flags and counters of a book (both empty when book.yaml declares none)."""

    flags: tuple[StateEntry, ...] = ()
    counters: tuple[StateEntry, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.flags or self.counters)

    def flag(self, name: str) -> StateEntry | None:
        """The flag ``name`` stands for (by its name or its display name)."""
        return _find(self.flags, name)

    def counter(self, name: str) -> StateEntry | None:
        """The counter ``name`` stands for (by its name or its display name)."""
        return _find(self.counters, name)

    def names(self) -> list[str]:
        """Every declared name, for "did you mean" hints."""
        return [entry.name for entry in (*self.flags, *self.counters)]


def _find(entries: tuple[StateEntry, ...], name: str) -> StateEntry | None:
    wanted = name_key(name)
    for entry in entries:
        if entry.key == wanted or name_key(entry.display) == wanted:
            return entry
    return None


def _span(node: Any, key: Any, file: str, offset: int, value: bool = False) -> Span:
    try:
        line, column = node.lc.value(key) if value else node.lc.key(key)
        return Span(file, line + 1 + offset, column + 1)
    except (AttributeError, KeyError, TypeError, IndexError):
        return Span(file, 1 + offset, 1)


def _item_span(node: Any, index: int, file: str, offset: int) -> Span:
    try:
        line, column = node.lc.item(index)
        return Span(file, line + 1 + offset, column + 1)
    except (AttributeError, KeyError, TypeError, IndexError):
        return Span(file, 1 + offset, 1)


class _Reader:
    def __init__(self, file: str, offset: int, errors: list[DedaleError], french: bool):
        self.file, self.offset, self.errors, self.french = file, offset, errors, french
        self.seen: dict[str, Span] = {}

    def error(self, message: str, span: Span, hint: str | None = None) -> None:
        self.errors.append(BookMetadataError(message, span, hint))

    def section(self, data: Any, where: Span) -> BookState:
        if data is None:
            return BookState()
        if not isinstance(data, dict):
            self.error(
                tr("`{key}` must be a mapping with `flags:` and `counters:`", key="state"),
                where,
                tr("for example `state:` then `  flags: [met lieutenant]` on the next line"),
            )
            return BookState()
        groups: dict[str, tuple[StateEntry, ...]] = {"flags": (), "counters": ()}
        for key in data:
            kind = SECTION_KEYS.canonical(key)
            span = _span(data, key, self.file, self.offset)
            if kind is None:
                self.error(
                    tr("unknown key `{key}`", key=key), span, SECTION_KEYS.suggest(key, self.french)
                )
                continue
            groups[kind] = self.entries(data[key], kind, span)
        return BookState(flags=groups["flags"], counters=groups["counters"])

    def entries(self, node: Any, kind: str, where: Span) -> tuple[StateEntry, ...]:
        pairs: list[tuple[Any, Any, Span, Span]] = []  # name, settings, name span, value span
        if isinstance(node, list):
            for index, name in enumerate(node):
                span = _item_span(node, index, self.file, self.offset)
                pairs.append((name, None, span, span))
        elif isinstance(node, dict):
            for name in node:
                span = _span(node, name, self.file, self.offset)
                pairs.append(
                    (name, node[name], span, _span(node, name, self.file, self.offset, True))
                )
        elif node is not None:
            self.error(
                tr("`{key}` must be a list of names or a mapping of names to settings", key=kind),
                where,
                tr("for example `[met lieutenant, calf following]`"),
            )
        found: list[StateEntry] = []
        for name, settings, span, value_span in pairs:
            if len(self.seen) >= MAX_ENTRIES:
                self.error(
                    tr("a book declares at most {limit} flags and counters", limit=MAX_ENTRIES),
                    span,
                )
                break
            entry = self.entry(name, settings, kind, span, value_span)
            if entry is not None:
                found.append(entry)
        return tuple(found)

    def entry(
        self, name: Any, settings: Any, kind: str, span: Span, value_span: Span
    ) -> StateEntry | None:
        if not isinstance(name, str | int) or isinstance(name, bool) or not str(name).strip():
            self.error(tr("a flag or counter is named by a line of text"), span)
            return None
        name = str(name).strip()
        if len(name) > MAX_NAME:
            self.error(tr("a name of at most {limit} characters", limit=MAX_NAME), span)
            return None
        key = name_key(name)
        if key in self.seen:
            self.error(
                tr("`{name}` is declared twice", name=name),
                span,
                tr("it is already declared at {where}", where=str(self.seen[key])),
            )
            return None
        self.seen[key] = span
        values: dict[str, Any] = {}
        spans: dict[str, Span] = {}
        if isinstance(settings, dict):
            for setting in settings:
                canonical = ENTRY_KEYS.canonical(setting)
                here = _span(settings, setting, self.file, self.offset, True)
                if canonical is None or (kind == "flags" and canonical in ("start", "max")):
                    self.error(
                        tr("unknown key `{key}`", key=setting),
                        _span(settings, setting, self.file, self.offset),
                        ENTRY_KEYS.suggest(setting, self.french),
                    )
                    continue
                values[canonical] = settings[setting]
                spans[canonical] = here
        elif isinstance(settings, str) and settings.strip():
            values["name"] = settings  # `calf following: The calf follows you`
        elif settings is not None:
            self.error(
                tr("the settings of `{name}` must be a mapping", name=name),
                value_span,
                tr("for example `{{name: Lieutenants met, sheet: stats}}`"),
            )
        display = values.get("name", name)
        if not isinstance(display, str | int) or isinstance(display, bool):
            self.error(tr("a display name is a line of text"), spans.get("name", span))
            display = name
        sheet = SHEET_VALUES.get(norm(values.get("sheet", "notes")))
        if isinstance(values.get("sheet"), bool):
            sheet = "notes" if values["sheet"] else "none"
        if sheet is None:
            self.error(
                tr("unknown sheet place `{value}`", value=values.get("sheet")),
                spans.get("sheet", span),
                tr("write `stats`, `notes` or `no`"),
            )
            sheet = "notes"
        start = self.number(values, spans, "start", span, 0)
        maximum = self.number(values, spans, "max", span, None)
        if maximum is not None and start > maximum:
            self.error(
                tr("`{name}` starts above its maximum", name=name),
                spans.get("start", span),
                tr("its maximum is {value}", value=maximum),
            )
        return StateEntry(
            name=name, display=str(display).strip() or name, sheet=sheet, start=start,
            maximum=maximum, span=span,
        )  # fmt: skip

    def number(
        self, values: dict[str, Any], spans: dict[str, Span], key: str, span: Span, default
    ) -> Any:
        if key not in values:
            return default
        value = values[key]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_VALUE:
            self.error(
                tr("`{key}` must be a whole number from 0 to {high}", key=key, high=MAX_VALUE),
                spans.get(key, span),
            )
            return default
        return value


def parse_book_state(
    data: Any, where: Span, file: str, offset: int, errors: list[DedaleError], french: bool
) -> BookState:
    """The ``state:`` section read from ruamel data; every problem appended to ``errors``."""
    return _Reader(file, offset, errors, french).section(data, where)
