"""The validator's settings, read from the ``validator:`` section of book.yaml.

    validator:
      ignore: [W012, "W013@45", "I025@12"]   # a code everywhere, or a code at one paragraph
      fight_threshold: 0.05                   # warn below this chance for the median hero
      runs: 1000                              # random playthroughs (--runs overrides)
      max_steps: 2000                         # paragraphs per random game before giving up
      hidden: [217, 312]                      # paragraphs reached by hidden numbers
      time_budget: 30                         # seconds for each costly check (0: no limit)

``ignore`` may also be a mapping ``{W013: [45, 46], W012: all}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dedale.errors import BookMetadataError
from dedale.i18n import tr
from dedale.span import Span
from dedale.validator.findings import CHECKS, Finding

DEFAULT_RUNS = 1000
DEFAULT_THRESHOLD = 0.05
DEFAULT_MAX_STEPS = 2000


@dataclass(frozen=True, slots=True)
class Settings:
    """What book.yaml says about validating this book."""

    ignored_codes: frozenset[str] = frozenset()
    ignored_at: frozenset[tuple[str, int]] = frozenset()
    fight_threshold: float = DEFAULT_THRESHOLD
    runs: int | None = None
    max_steps: int = DEFAULT_MAX_STEPS
    hidden: tuple[int, ...] = field(default=())
    time_budget: float | None = None  # seconds per costly check; None: each one's default

    def silences(self, item: Finding) -> bool:
        """True when book.yaml silences this finding."""
        if item.code in self.ignored_codes:
            return True
        return item.paragraph is not None and (item.code, item.paragraph) in self.ignored_at


def _get(source: object, key: str) -> object:
    if isinstance(source, Mapping):
        return source.get(key)
    return getattr(source, key, None)


def _code(text: object, where: Span | None) -> str:
    code = str(text).strip().upper()
    if code not in CHECKS:
        raise BookMetadataError(
            tr("validator.ignore: unknown finding code '{code}'", code=text),
            where,
            hint=tr("codes are listed in docs/validator.md (E010, W013, ...)"),
        )
    return code


def _int(value: object, key: str, where: Span | None) -> int:
    if not isinstance(value, bool) and isinstance(value, int | str):
        try:
            return int(value)
        except ValueError:
            pass
    raise BookMetadataError(
        tr("validator.{key}: expected a number, got {value}", key=key, value=repr(value)), where
    )


def read_settings(book: object) -> Settings:
    """The Settings of a loaded book (defaults when book.yaml says nothing)."""
    meta = getattr(book, "meta", None)
    where = meta.span("validator") if hasattr(meta, "span") else None
    section = _get(meta, "validator") if meta is not None else None
    if section is None:
        section = {}
    if not isinstance(section, Mapping):
        section = {
            key: _get(section, key) for key in ("ignore", "fight_threshold", "runs", "time_budget")
        }
    codes: set[str] = set()
    at: set[tuple[str, int]] = set()
    ignore = section.get("ignore") or []
    if isinstance(ignore, Mapping):
        for key, where in ignore.items():
            code = _code(key, where)
            if where in (None, "all", True):
                codes.add(code)
            else:
                for number in where if isinstance(where, list | tuple) else [where]:
                    at.add((code, _int(number, "ignore", where)))
    elif isinstance(ignore, list | tuple):
        for entry in ignore:
            text = str(entry)
            if "@" in text:
                code, number = text.split("@", 1)
                at.add((_code(code, where), _int(number.strip(), "ignore", where)))
            else:
                codes.add(_code(text, where))
    else:
        codes.add(_code(ignore, where))
    threshold = section.get("fight_threshold", DEFAULT_THRESHOLD)
    try:
        threshold = float(threshold)
    except (TypeError, ValueError):
        raise BookMetadataError(
            tr(
                "validator.fight_threshold: expected a probability, got {value}",
                value=repr(threshold),
            ),
            where,
        ) from None
    if threshold > 1:
        threshold /= 100  # written as a percentage
    runs = section.get("runs")
    hidden = section.get("hidden") or _get(meta, "hidden") or ()
    return Settings(
        ignored_codes=frozenset(codes),
        ignored_at=frozenset(at),
        fight_threshold=threshold,
        runs=None if runs is None else _int(runs, "runs", where),
        max_steps=_int(section.get("max_steps", DEFAULT_MAX_STEPS), "max_steps", where),
        hidden=tuple(_int(n, "hidden", where) for n in hidden),
        time_budget=_seconds(section.get("time_budget"), where),
    )


def _seconds(value: object, where: Span | None) -> float | None:
    """``time_budget``: seconds (0: no limit), None when book.yaml says nothing."""
    if value is None:
        return None
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 86_400:
        return float(value) if value else float("inf")
    raise BookMetadataError(
        tr(
            "validator.time_budget: expected seconds from 0 to 86400, got {value}",
            value=repr(value),
        ),
        where,
        hint=tr("write a number of seconds, for instance 'time_budget: 60' (0: no limit)"),
    )
