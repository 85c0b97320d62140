"""book.yaml (or a single file's front matter): schema, safe loading, positioned errors.

YAML is read with ruamel.yaml's round-trip loader, which builds only plain mappings,
sequences and scalars (never Python objects from tags) and remembers the line and column
of every key and value, so each error points at the spot.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dedale import ast
from dedale.errors import BookMetadataError, DedaleError
from dedale.i18n import tr
from dedale.language.book_state import BookState, parse_book_state
from dedale.language.keywords import fold
from dedale.language.meta_keys import (
    BOOL_VALUES,
    CREATION,
    GENDER_VALUES,
    LANGUAGE_VALUES,
    REROLL_VALUES,
    TOP,
    VALIDATOR,
    norm,
    wrong_type_hint,
)
from dedale.language.metadata_plain import plain_mapping
from dedale.language.pinned_key import parse_pinned
from dedale.language.start_items import parse_start_items
from dedale.span import Span

LANGUAGES = ("fr", "en")
REROLL_POLICIES = ("never", "once", "unlimited")
DEFAULT_RULESET = "df-classic"


@dataclass(frozen=True, slots=True)
class CreationOptions:
    """How the hero is made: typed-in stats allowed, rerolls, default name."""

    fixed_stats: bool = False
    reroll: str = "never"
    default_name: str | None = None
    gender: str | None = None
    """The hero's grammatical gender ("f" or "m"), for the French sentences about the hero
    ("Vous êtes morte"); None: masculine, unless the player chooses."""


@dataclass(frozen=True)
class BookMeta:
    """What book.yaml says. ``spans``/``value_spans``: where each top-level key/value is."""

    title: str
    author: str = ""
    language: str = "fr"
    ruleset: str = DEFAULT_RULESET
    rules: Mapping[str, Any] | None = None  # ruleset overrides (ruamel data, positions kept)
    start: int = 1
    files: tuple[str, ...] | None = None
    items: tuple[ast.GainItem, ...] = ()  # given at creation, as by `> take` lines
    creation: CreationOptions = field(default_factory=CreationOptions)
    validator: Mapping[str, Any] = field(default_factory=dict)
    state: BookState = field(default_factory=BookState)  # declared flags and counters
    pinned: tuple[int, ...] = ()  # paragraphs `dedale export --shuffle` keeps in place
    file: str = "book.yaml"
    spans: Mapping[str, Span] = field(default_factory=dict, compare=False)
    value_spans: Mapping[str, Span] = field(default_factory=dict, compare=False)
    file_spans: tuple[Span, ...] = field(default=(), compare=False)  # one per ``files`` entry

    def span(self, key: str) -> Span:
        """Where ``key`` was written (the file's start when it was not)."""
        return self.spans.get(key, Span(self.file, 1, 1))

    def value_span(self, key: str) -> Span:
        """Where the value of ``key`` was written (else the key, else the file's start)."""
        return self.value_spans.get(key) or self.span(key)


def did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str | None:
    """``did you mean `title`?`` when ``word`` is close to one of ``choices``."""
    close = difflib.get_close_matches(fold(word).lower(), list(choices), n=1, cutoff=0.6)
    return tr("did you mean `{name}`?", name=close[0]) if close else None


def _key_span(mapping: Any, key: Any, file: str, *, value: bool = False) -> Span:
    try:
        if value:
            line, column = mapping.lc.value(key)
        else:
            line, column = mapping.lc.key(key)
        return Span(file, line + 1, column + 1)
    except (AttributeError, KeyError, TypeError, IndexError):
        return Span(file, 1, 1)


def _item_span(seq: Any, index: int, file: str) -> Span:
    try:
        line, column = seq.lc.item(index)
        return Span(file, line + 1, column + 1)
    except (AttributeError, KeyError, TypeError, IndexError):
        return Span(file, 1, 1)


def load_yaml(text: str, file: str, line_offset: int = 0) -> Any:
    """Parse YAML text safely and within bounds; raise BookMetadataError at the spot.
    ``key: value`` lines alone are read without ruamel.yaml (language.metadata_plain)."""
    plain = plain_mapping(text)
    if plain is not None:
        return plain
    from dedale.rules.yamlsafe import parse_yaml  # imports ruamel.yaml (~10 ms)

    return parse_yaml(
        text,
        file,
        BookMetadataError,
        line_offset,
        syntax_hint=tr("check the indentation and the `key: value` form of this line"),
    )


def _shift(span: Span, offset: int) -> Span:
    return Span(span.file, span.line + offset, span.column) if offset else span


def _is_french(data: Mapping) -> bool:
    """Whether the author writes book.yaml in French: its ``language:`` says so, else its
    keys do (more French than English ones); French is the default language."""
    for key in data:
        if TOP.canonical(key) == "language":
            said = LANGUAGE_VALUES.get(norm(data[key]))
            if said is not None:
                return said == "fr"
    french = sum(1 for key in data if TOP.is_french(key))
    english = sum(1 for key in data if norm(key) in TOP.english and not TOP.is_french(key))
    return french >= english


def parse_meta(
    text: str, file: str, errors: list[DedaleError], line_offset: int = 0
) -> BookMeta | None:
    """Read book.yaml text; append every problem to ``errors``; None when unusable."""
    try:
        data = load_yaml(text, file, line_offset)
    except BookMetadataError as error:
        errors.append(error)
        return None
    where = Span(file, 1 + line_offset, 1)
    if data is None:
        errors.append(
            BookMetadataError(
                tr("the book's metadata is empty"), where, hint=tr("add at least `title:`")
            )
        )
        return None
    if not isinstance(data, dict):
        errors.append(
            BookMetadataError(
                tr("the book's metadata must be `key: value` lines"),
                where,
                hint=tr("for example `title: The Cellar`"),
            )  # fmt: skip
        )
        return None

    french = _is_french(data)
    values: dict[str, Any] = {}
    written: dict[str, str] = {}  # canonical key -> the key as the author wrote it
    spans: dict[str, Span] = {}
    value_spans: dict[str, Span] = {}
    for key in data:
        key_span = _shift(_key_span(data, key, file), line_offset)
        name = TOP.canonical(key)
        if name is None:
            errors.append(
                BookMetadataError(
                    tr("unknown key `{key}`", key=key), key_span, hint=TOP.suggest(key, french)
                )
            )
            continue
        values[name] = data[key]
        written[name] = str(key)
        spans[name] = key_span
        value_spans[name] = _shift(_key_span(data, key, file, value=True), line_offset)

    def bad(key: str, message: str, hint: str | None = None) -> None:
        better = wrong_type_hint(key, written.get(key, key), values.get(key), french)
        errors.append(BookMetadataError(message, value_spans.get(key, where), better or hint))

    def shown(key: str) -> str:
        return written.get(key) or TOP.spell(key, french)

    title = values.get("title")
    if title is None and any(TOP.canonical(k) is None and norm(k)[:3] == "tit" for k in data):
        title = ""  # already reported as a misspelt key
    elif title is None:
        errors.append(
            BookMetadataError(
                tr("the book has no `{key}:`", key=TOP.spell("title", french)),
                where,
                tr("add `{key}: ...`", key=TOP.spell("title", french)),
            )
        )
        title = ""
    elif not isinstance(title, str | int | float):
        bad("title", tr("`{key}` must be a line of text", key=shown("title")))
        title = ""
    author = values.get("author", "")
    if isinstance(author, list):
        author = ", ".join(str(a) for a in author)
    elif not isinstance(author, str | int | float):
        bad("author", tr("`{key}` must be a line of text", key=shown("author")))
        author = ""

    given = str(values.get("language", "fr")).strip()
    language = LANGUAGE_VALUES.get(norm(given))
    if language not in LANGUAGES:
        bad(
            "language",
            tr("unknown language `{language}`", language=given),
            tr("write `{key}: fr` or `{key}: en`", key=shown("language")),
        )
        language = "fr"

    ruleset = values.get("ruleset", DEFAULT_RULESET)
    if not isinstance(ruleset, str) or not ruleset.strip():
        bad(
            "ruleset",
            tr("`{key}` must name a ruleset", key=shown("ruleset")),
            tr("for example `{key}: df-classic`", key=shown("ruleset")),
        )
        ruleset = DEFAULT_RULESET

    rules = values.get("rules")
    if line_offset and isinstance(rules, dict):
        _shift_lines(rules, line_offset)  # the ruleset reads them: point into the .dd file
    if rules is not None and not isinstance(rules, Mapping):
        bad(
            "rules",
            tr("`{key}` must be a mapping of ruleset values to override", key=shown("rules")),
        )
        if isinstance(rules, str) and "ruleset" not in values:
            from dedale.rules.loader import builtin_names

            if rules.strip() in builtin_names():  # `rules: d20` meant the ruleset
                ruleset = rules.strip()  # so the book is checked with it, without a cascade
        rules = None

    start = values.get("start", 1)
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        bad(
            "start",
            tr(
                "`{key}` must be a paragraph number, not {value}",
                key=shown("start"),
                value=repr(start),
            ),
            tr("for example `{key}: 1`", key=shown("start")),
        )
        start = 1

    files = values.get("files")
    file_spans: list[Span] = []
    if isinstance(files, list):
        file_spans = [_shift(_item_span(files, i, file), line_offset) for i in range(len(files))]
    if files is not None:
        if isinstance(files, str):
            files = [files]
        if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
            bad(
                "files",
                tr("`{key}` must be a list of paragraph file names", key=shown("files")),
                tr("`{key}: [part1.dd]`", key=shown("files")),
            )
            files = None

    items = values.get("items")
    entries: list[tuple[Any, Span]] = []
    if isinstance(items, list):
        entries = [
            (item, _shift(_item_span(items, i, file), line_offset)) for i, item in enumerate(items)
        ]
    elif items is not None:
        bad("items", tr("`{key}` must be a list of item names", key=shown("items")))

    creation = CreationOptions()
    if values.get("creation") is not None:
        if isinstance(values["creation"], dict):
            creation = _creation(values["creation"], file, line_offset, errors, french)
        else:
            bad("creation", tr("`{key}` must be a mapping", key=shown("creation")))
    validator = values.get("validator", {})
    if validator is None:
        validator = {}
    if not isinstance(validator, Mapping):
        bad(
            "validator",
            tr("`{key}` must be a mapping of settings", key=shown("validator")),
            tr("see docs/validator.md"),
        )
        validator = {}
    for key in validator:  # a misspelt setting would be silently ignored by the validator
        if VALIDATOR.canonical(key) is None:
            errors.append(
                BookMetadataError(
                    tr("unknown key `{key}`", key=key),
                    _shift(_key_span(validator, key, file), line_offset),
                    hint=VALIDATOR.suggest(key, french),
                )
            )
    validator = _english_keys(validator, VALIDATOR)
    state = parse_book_state(
        values.get("state"), value_spans.get("state", where), file, line_offset, errors, french
    )

    return BookMeta(
        title=str(title),
        author=str(author),
        language=language,
        ruleset=ruleset.strip(),
        rules=rules,
        start=start,
        files=tuple(files) if files is not None else None,
        items=parse_start_items(entries, errors),
        creation=creation,
        validator=validator,
        state=state,
        pinned=parse_pinned(values.get("pinned"), bad, shown("pinned")),
        file=file,
        spans=spans,
        value_spans=value_spans,
        file_spans=tuple(file_spans),
    )


def _shift_lines(data: Any, offset: int) -> None:
    """Move every line ruamel remembers inside ``data`` by ``offset`` (a front matter starts
    below its ``---``), each container once (aliases share theirs)."""
    seen: set[int] = set()
    stack: list[Any] = [data]
    while stack:
        node = stack.pop()
        if id(node) in seen or not isinstance(node, dict | list):
            continue
        seen.add(id(node))
        lc = node.lc
        if lc.line is not None:
            lc.line += offset
        for entry in (lc.data or {}).values():
            entry[0] += offset
            if len(entry) > 2 and entry[2] is not None:
                entry[2] += offset
        stack.extend(node.values() if isinstance(node, dict) else node)


def _english_keys(section: Mapping[str, Any], keys: Any) -> Mapping[str, Any]:
    """``section`` with its French keys renamed to the English ones its readers use (the
    section itself when nothing is renamed; unknown keys are left for its reader)."""
    renamed = {key: keys.canonical(key) or key for key in section}
    if all(str(key) == new for key, new in renamed.items()):
        return section
    return {renamed[key]: value for key, value in section.items()}


def _creation(
    section: Any, file: str, offset: int, errors: list[DedaleError], french: bool
) -> CreationOptions:
    fixed, reroll, name, gender = False, "never", None, None
    for key in section:
        span = _shift(_key_span(section, key, file), offset)
        vspan = _shift(_key_span(section, key, file, value=True), offset)
        value = section[key]
        canonical = CREATION.canonical(key)
        if canonical == "fixed_stats":
            if isinstance(value, str):
                value = BOOL_VALUES.get(norm(value), value)
            if not isinstance(value, bool):
                errors.append(
                    BookMetadataError(
                        tr("`{key}` must be true or false", key=key),
                        vspan,
                        tr("write `{key}: true` or `{key}: false`", key=key),
                    )
                )
            else:
                fixed = value
        elif canonical == "reroll":
            policy = REROLL_VALUES.get(norm(value))
            if policy not in REROLL_POLICIES:
                errors.append(
                    BookMetadataError(
                        tr("unknown reroll policy `{value}`", value=value),
                        vspan,
                        hint=tr(
                            "one of: {names}",
                            names="jamais, une-fois, illimité"
                            if french
                            else ", ".join(REROLL_POLICIES),
                        ),
                    )  # fmt: skip
                )
            else:
                reroll = policy
        elif canonical == "default_name":
            name = None if value is None else str(value)
        elif canonical == "gender":
            gender = GENDER_VALUES.get(norm(value))
            if gender is None:
                errors.append(
                    BookMetadataError(
                        tr("unknown gender `{value}`", value=value),
                        vspan,
                        hint=tr("write `{key}: f` or `{key}: m`", key=key),
                    )
                )
        else:
            errors.append(
                BookMetadataError(
                    tr("unknown creation option `{key}`", key=key),
                    span,
                    hint=CREATION.suggest(key, french),
                )  # fmt: skip
            )
    return CreationOptions(fixed_stats=fixed, reroll=reroll, default_name=name, gender=gender)
