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

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError

from dedale import ast
from dedale.errors import BookMetadataError, DedaleError
from dedale.language.keywords import fold
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


# French spellings of the keys an author may prefer.
_KEY_ALIASES = {
    "titre": "title",
    "auteur": "author",
    "auteurs": "author",
    "langue": "language",
    "lang": "language",
    "regles": "rules",
    "jeu-de-regles": "ruleset",
    "depart": "start",
    "debut": "start",
    "fichiers": "files",
    "objets": "items",
    "validateur": "validator",
}
_KEYS = (
    "title", "author", "language", "ruleset", "rules", "start", "files", "items",
    "creation", "validator",
)  # fmt: skip
_CREATION_KEYS = ("fixed_stats", "reroll", "default_name")


def did_you_mean(word: str, choices: tuple[str, ...] | list[str]) -> str | None:
    """``did you mean `title`?`` when ``word`` is close to one of ``choices``."""
    close = difflib.get_close_matches(fold(word).lower(), list(choices), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


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
    """Parse YAML text safely; raise BookMetadataError with the error's position."""
    yaml = YAML(typ="rt", pure=True)
    yaml.allow_duplicate_keys = False
    try:
        return yaml.load(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        line = (mark.line + 1 if mark else 1) + line_offset
        column = mark.column + 1 if mark else 1
        problem = error.problem or error.context or "invalid YAML"
        raise BookMetadataError(
            f"YAML error: {problem}",
            Span(file, line, column),
            hint="check the indentation and the `key: value` form of this line",
        ) from None
    except YAMLError as error:
        raise BookMetadataError(f"YAML error: {error}", Span(file, 1 + line_offset, 1)) from None
    except Exception as error:  # ruamel may raise plain errors on odd input
        raise BookMetadataError(
            f"YAML error: {type(error).__name__}", Span(file, 1 + line_offset, 1)
        ) from None


def _shift(span: Span, offset: int) -> Span:
    return Span(span.file, span.line + offset, span.column) if offset else span


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
            BookMetadataError("the book's metadata is empty", where, hint="add at least `title:`")
        )
        return None
    if not isinstance(data, CommentedMap):
        errors.append(
            BookMetadataError(
                "the book's metadata must be `key: value` lines",
                where,
                hint="for example `title: The Cellar`",
            )  # fmt: skip
        )
        return None

    values: dict[str, Any] = {}
    spans: dict[str, Span] = {}
    value_spans: dict[str, Span] = {}
    for key in data:
        key_span = _shift(_key_span(data, key, file), line_offset)
        name = _KEY_ALIASES.get(fold(str(key)).lower(), str(key))
        if name not in _KEYS:
            errors.append(
                BookMetadataError(
                    f"unknown key `{key}`",
                    key_span,
                    hint=did_you_mean(str(key), _KEYS) or f"known keys: {', '.join(_KEYS)}",
                )  # fmt: skip
            )
            continue
        values[name] = data[key]
        spans[name] = key_span
        value_spans[name] = _shift(_key_span(data, key, file, value=True), line_offset)

    def bad(key: str, message: str, hint: str | None = None) -> None:
        errors.append(BookMetadataError(message, value_spans.get(key, where), hint))

    title = values.get("title")
    if title is None and any("`title`" in (e.hint or "") for e in errors):
        title = ""  # already reported as a misspelt key
    elif title is None:
        errors.append(BookMetadataError("the book has no `title:`", where, "add `title: ...`"))
        title = ""
    elif not isinstance(title, str | int | float):
        bad("title", "`title` must be a line of text")
        title = ""
    author = values.get("author", "")
    if isinstance(author, CommentedSeq):
        author = ", ".join(str(a) for a in author)
    elif not isinstance(author, str | int | float):
        bad("author", "`author` must be a line of text")
        author = ""

    language = str(values.get("language", "fr")).strip().lower()
    if language not in LANGUAGES:
        bad("language", f"unknown language `{language}`", "write `language: fr` or `language: en`")
        language = "fr"

    ruleset = values.get("ruleset", DEFAULT_RULESET)
    if not isinstance(ruleset, str) or not ruleset.strip():
        bad("ruleset", "`ruleset` must name a ruleset", "for example `ruleset: df-classic`")
        ruleset = DEFAULT_RULESET

    rules = values.get("rules")
    if rules is not None and not isinstance(rules, Mapping):
        bad("rules", "`rules` must be a mapping of ruleset values to override")
        rules = None

    start = values.get("start", 1)
    if isinstance(start, bool) or not isinstance(start, int) or start < 0:
        bad("start", f"`start` must be a paragraph number, not {start!r}", "for example `start: 1`")
        start = 1

    files = values.get("files")
    file_spans: list[Span] = []
    if isinstance(files, CommentedSeq):
        file_spans = [_shift(_item_span(files, i, file), line_offset) for i in range(len(files))]
    if files is not None:
        if isinstance(files, str):
            files = [files]
        if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
            bad("files", "`files` must be a list of paragraph file names", "`files: [part1.dd]`")
            files = None

    items = values.get("items")
    entries: list[tuple[Any, Span]] = []
    if isinstance(items, CommentedSeq):
        entries = [
            (item, _shift(_item_span(items, i, file), line_offset)) for i, item in enumerate(items)
        ]
    elif items is not None:
        bad("items", "`items` must be a list of item names")

    creation = _creation(values.get("creation"), file, line_offset, errors, value_spans)
    validator = values.get("validator", {})
    if validator is None:
        validator = {}
    if not isinstance(validator, Mapping):
        bad("validator", "`validator` must be a mapping of settings", "see docs/validator.md")
        validator = {}

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
        file=file,
        spans=spans,
        value_spans=value_spans,
        file_spans=tuple(file_spans),
    )


def _creation(
    section: Any,
    file: str,
    offset: int,
    errors: list[DedaleError],
    value_spans: dict[str, Span],
) -> CreationOptions:
    if section is None:
        return CreationOptions()
    where = value_spans.get("creation", Span(file, 1, 1))
    if not isinstance(section, CommentedMap):
        errors.append(BookMetadataError("`creation` must be a mapping", where))
        return CreationOptions()
    fixed, reroll, name = False, "never", None
    for key in section:
        span = _shift(_key_span(section, key, file), offset)
        vspan = _shift(_key_span(section, key, file, value=True), offset)
        value = section[key]
        if key == "fixed_stats":
            if not isinstance(value, bool):
                errors.append(BookMetadataError("`fixed_stats` must be true or false", vspan))
            else:
                fixed = value
        elif key == "reroll":
            if str(value) not in REROLL_POLICIES:
                errors.append(
                    BookMetadataError(
                        f"unknown reroll policy `{value}`",
                        vspan,
                        hint=f"one of: {', '.join(REROLL_POLICIES)}",
                    )  # fmt: skip
                )
            else:
                reroll = str(value)
        elif key == "default_name":
            name = None if value is None else str(value)
        else:
            errors.append(
                BookMetadataError(
                    f"unknown creation option `{key}`",
                    span,
                    hint=did_you_mean(str(key), _CREATION_KEYS)
                    or f"known options: {', '.join(_CREATION_KEYS)}",
                )  # fmt: skip
            )
    return CreationOptions(fixed_stats=fixed, reroll=reroll, default_name=name)
