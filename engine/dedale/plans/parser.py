"""Read a ``.plan`` file: one step per line, or several separated by `` / ``.

Comments start with ``#`` or ``//`` (at the start of a line, or after a space).
Every mistake raises :class:`PlanError` located at file:line:column, with a hint, in the
plan's language (the language of its first keyword).
"""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from dedale.errors import DedaleError
from dedale.i18n import tr
from dedale.plans import keywords as kw
from dedale.plans.model import (
    Answer,
    At,
    Choose,
    Dice,
    Drop,
    Eat,
    Ending,
    Expect,
    God,
    Held,
    Jump,
    Language,
    Plan,
    SetValue,
    Step,
    Value,
)
from dedale.rules.dice import MAX_SIDES
from dedale.span import Span

MAX_PLAN_BYTES = 1_000_000
"""A plan file larger than this is refused (a plan is written by hand or recorded)."""
MAX_NUMBER = 10**9
"""No number in a plan goes past this (the interpreter's own bound on answers)."""
MAX_FACES = 10_000
"""At most this many dice on one ``dice:`` line."""

_WORD = re.compile(r"[^\s:\u00a0\u202f]+")
_SEP = re.compile(r"[\s\u00a0\u202f]*:?[\s\u00a0\u202f]*")
_INT = re.compile(r"-?\d+$")
VALUE_PATTERN = re.compile(
    r"^(?P<name>.*?[^\s<>=≤≥])\s*(?P<op>>=|<=|==|=|>|<|≥|≤)?\s*(?P<n>-?\d+)$"
)
_NUMBER_AFTER = re.compile(r"^(?P<op>>=|<=|==|=|>|<|≥|≤)?\s*(?P<n>-?\d+)$")
_SET = re.compile(r"^(?P<name>.*?\S)\s+(?P<n>-?\d+)$")
_PAIR = re.compile(r"\s*,?\s*(?P<name>[^\d\s,][^\d,]*?)\s*(?P<n>\d+)\s*")
_OPERATORS = {"==": "=", "≥": ">=", "≤": "<="}
_KEYWORDS_EN = (
    "hero, name, class, gender, seed, otherwise, dice, at, choose, answer, eat, drop, expect, "
    "ending, stop, jump, set, god"
)
_KEYWORDS_FR = (
    "héros, nom, classe, genre, graine, sinon, dés, au, choisir, répondre, manger, jeter, "
    "attendu, fin, arrêt, sauter, fixer, invincible"
)


class PlanError(DedaleError):
    """A plan file that cannot be read: the message says where and why."""


def read_plan(path: str | Path) -> Plan:
    """Read and parse a plan file (a PlanError if it cannot be read or parsed)."""
    path = Path(path)
    try:
        if not path.is_file():
            raise PlanError(tr("{path}: no such plan file", path=str(path)))
        data = path.read_bytes()[: MAX_PLAN_BYTES + 1]
    except OSError as error:
        raise PlanError(
            tr("{path}: cannot be read ({reason})", path=str(path), reason=str(error))
        ) from None
    if len(data) > MAX_PLAN_BYTES:
        raise PlanError(
            tr("{path}: a plan is at most {size} bytes", path=str(path), size=MAX_PLAN_BYTES),
            Span(str(path), 1, 1),
        )
    return parse_plan(data.decode("utf-8", errors="replace"), str(path))


def parse_plan(text: str, file: str = "<plan>") -> Plan:
    """Parse the text of a plan (a located PlanError on the first mistake)."""
    return _Parser(file).parse(text.lstrip("\ufeff"))


class _Parser:
    def __init__(self, file: str) -> None:
        self.file = file
        self.language: Language | None = None
        self.header: dict[str, object] = {}
        self.hero_span: Span | None = None
        self.steps: list[Step] = []

    # ------------------------------------------------------------------ errors

    def error(self, message, line: int, column: int, end: int | None = None, hint=None):
        span = Span(self.file, line, column, line, end)
        error = PlanError(message, span, hint)
        error.lang = self.language or "en"
        return error

    # ------------------------------------------------------------------ lines

    def parse(self, text: str) -> Plan:
        if len(text) > MAX_PLAN_BYTES:
            raise self.error(tr("a plan is at most {size} bytes", size=MAX_PLAN_BYTES), 1, 1)
        for number, raw in enumerate(text.splitlines(), start=1):
            for column, segment in _segments(_strip_comment(raw)):
                self.segment(segment, number, column)
        gender = self.header.get("gender")
        return Plan(
            hero=tuple(self.header.get("hero", ())),  # type: ignore[arg-type]
            steps=tuple(self.steps),
            language=self.language or "en",
            name=self.header.get("name"),  # type: ignore[arg-type]
            class_name=self.header.get("class"),  # type: ignore[arg-type]
            gender=gender,  # type: ignore[arg-type]
            seed=self.header.get("seed"),  # type: ignore[arg-type]
            otherwise=self.header.get("otherwise"),  # type: ignore[arg-type]
            file=self.file,
            hero_span=self.hero_span,
        )

    def segment(self, text: str, line: int, column: int) -> None:
        found = _WORD.match(text)
        if found is None:  # the step starts with a colon
            words = _KEYWORDS_FR if self.language == "fr" else _KEYWORDS_EN
            raise self.error(
                tr("unknown plan keyword `{word}`", word=text.split()[0]),
                line, column, column + 1,
                hint=tr("a step starts with one of: {words}", words=words),
            )  # fmt: skip
        word = kw.folded(found.group())
        rest_at = found.end() + _SEP.match(text, found.end()).end() - found.end()  # type: ignore[union-attr]
        rest = text[rest_at:].rstrip()
        where = (line, column + rest_at)
        end = column + len(text.rstrip())
        if word in kw.HEADERS:
            meaning, lang = kw.HEADERS[word]
            self.note_language(lang)
            if self.steps:
                raise self.error(
                    tr("`{word}` belongs before the steps", word=found.group()),
                    line,
                    column,
                    end,
                    hint=tr("write the hero, name, class, gender and seed at the top"),
                )
            if meaning in self.header:
                raise self.error(
                    tr("`{word}` is given twice", word=found.group()), line, column, end
                )
            self.header[meaning] = self.header_value(meaning, rest, where, end)
            if meaning == "hero":
                self.hero_span = Span(self.file, line, column, line, end)
            return
        if word not in kw.STEPS:
            close = difflib.get_close_matches(word, list(kw.HEADERS) + list(kw.STEPS), 1)
            words = _KEYWORDS_FR if self.language == "fr" else _KEYWORDS_EN
            hint = (
                tr("did you mean `{word}`?", word=close[0])
                if close
                else tr("a step starts with one of: {words}", words=words)
            )
            raise self.error(
                tr("unknown plan keyword `{word}`", word=found.group()),
                line,
                column,
                column + found.end(),
                hint=hint,
            )
        meaning, lang = kw.STEPS[word]
        self.note_language(lang)
        span = Span(self.file, line, column, line, end)
        self.steps.append(self.step(meaning, rest, where, end, span))

    def note_language(self, lang: Language | None) -> None:
        if self.language is None and lang is not None:
            self.language = lang

    # ------------------------------------------------------------------ values

    def header_value(self, meaning: str, rest: str, where: tuple[int, int], end: int):
        line, column = where
        if not rest:
            raise self.error(tr("`{word}` needs a value", word=meaning), line, column, end)
        if meaning == "hero":
            return self.hero(rest, line, column, end)
        if meaning == "seed":
            return self.number(rest, line, column, end, low=0)
        if meaning == "otherwise":
            word = kw.folded(rest)
            if word not in kw.YES and word not in kw.NO:
                raise self.error(
                    tr("`{word}` is followed by yes or no", word=meaning), line, column, end
                )
            return word in kw.YES
        if meaning == "gender":
            gender = kw.GENDERS.get(kw.folded(rest))
            if gender is None:
                raise self.error(
                    tr("the gender is f or m, not `{value}`", value=rest), line, column, end
                )
            return gender
        return _unquote(rest)

    def hero(self, rest: str, line: int, column: int, end: int) -> tuple[tuple[str, int], ...]:
        pairs: list[tuple[str, int]] = []
        position = 0
        while position < len(rest):
            found = _PAIR.match(rest, position)
            if found is None or found.end() == position:
                raise self.error(
                    tr("cannot read the hero's stats here"),
                    line,
                    column + position,
                    end,
                    hint=tr("write each stat's name then its value: SKILL 10 STAMINA 20"),
                )
            value = int(found.group("n"))
            if value > MAX_NUMBER:
                raise self.error(tr("{value} is too large", value=value), line, column, end)
            pairs.append((found.group("name").strip(), value))
            position = found.end()
        return tuple(pairs)

    def number(self, text: str, line: int, column: int, end: int, low: int = -MAX_NUMBER) -> int:
        text = text.strip()
        if not _INT.match(text):
            raise self.error(
                tr("a number is expected, not `{value}`", value=text), line, column, end
            )
        value = int(text)
        if not low <= value <= MAX_NUMBER:
            raise self.error(
                tr(
                    "{value} is out of range ({low} to {high})",
                    value=value,
                    low=low,
                    high=MAX_NUMBER,
                ),
                line,
                column,
                end,
            )
        return value

    def step(self, meaning: str, rest: str, where: tuple[int, int], end: int, span: Span) -> Step:
        line, column = where
        if meaning in ("eat", "stop"):
            if rest:
                raise self.error(
                    tr("`{word}` takes nothing after it", word=meaning), line, column, end
                )
            return Eat(span=span) if meaning == "eat" else Ending("stop", span=span)
        if not rest:
            raise self.error(tr("`{word}` needs a value", word=meaning), line, column, end)
        if meaning == "dice":
            faces = list(re.finditer(r"[^\s,]+", rest))
            if len(faces) > MAX_FACES:
                raise self.error(
                    tr("at most {count} dice on a line", count=MAX_FACES), line, column, end
                )
            values = []
            for face in faces:
                at, to = column + face.start(), column + face.end()
                value = self.number(face.group(), line, at, to)
                if not 1 <= value <= MAX_SIDES:
                    raise self.error(
                        tr("a die shows 1 to {most}, not {face}", most=MAX_SIDES, face=value),
                        line, at, to,
                    )  # fmt: skip
                values.append(value)
            return Dice(tuple(values), span=span)
        if meaning == "at":
            return At(self.number(rest.lstrip("§ \u00a0"), line, column, end, low=0), span=span)
        if meaning == "choose":
            target = rest.lstrip("§ \u00a0")
            if _INT.match(target):
                return Choose(target=self.number(target, line, column, end), span=span)
            if rest.startswith("#"):
                return Choose(number=self.number(rest[1:], line, column, end, low=1), span=span)
            return Choose(text=_unquote(rest), span=span)
        if meaning == "answer":
            word = kw.folded(rest)
            if word in kw.YES:
                return Answer(True, span=span)
            if word in kw.NO:
                return Answer(False, span=span)
            if _INT.match(rest):
                return Answer(self.number(rest, line, column, end), span=span)
            return Answer(_unquote(rest), span=span)
        if meaning == "drop":
            return Drop(_unquote(rest), span=span)
        if meaning == "jump":
            return Jump(self.number(rest.lstrip("§ \u00a0"), line, column, end, low=0), span=span)
        if meaning == "god":
            word = kw.folded(rest)
            if word not in kw.ON and word not in kw.OFF:
                raise self.error(
                    tr("`{word}` is followed by on or off", word=meaning), line, column, end
                )
            return God(word in kw.ON, span=span)
        if meaning == "set":
            found = _SET.match(rest)
            if found is None:
                raise self.error(
                    tr("write the stat or counter, then its value: {example}",
                       example="fixer ENDURANCE 20" if self.language == "fr" else "set STAMINA 20"),
                    line, column, end,
                )  # fmt: skip
            value = self.number(found.group("n"), line, column, end)
            return SetValue(_unquote(found.group("name")), value, span=span)
        if meaning == "ending":
            found = kw.ENDINGS.get(kw.folded(rest))
            if found is None:
                raise self.error(
                    tr("the ending is victory or death, not `{value}`", value=rest),
                    line,
                    column,
                    end,
                    hint=tr("write `stop` where the plan stops before the game ends"),
                )
            return Ending(found[0], span=span)  # type: ignore[arg-type]
        return Expect(self.checks(rest, line, column), span=span)

    def checks(self, rest: str, line: int, column: int) -> tuple[Value | Held, ...]:
        checks: list[Value | Held] = []
        for offset, part in _split(rest, ","):
            start = column + offset + len(part) - len(part.lstrip())
            part = part.strip()
            end = start + len(part)
            if not part:
                raise self.error(tr("an expectation is missing between commas"), line, start)
            span = Span(self.file, line, start, line, end)
            first, _, after = part.partition(" ")
            if kw.folded(first) in kw.NOT and after.strip():
                checks.append(Held(_unquote(after.strip()), False, span=span))
                continue
            if part.startswith(('"', "«")):
                close = part.find('"' if part[0] == '"' else "»", 1)
                if close < 0:
                    raise self.error(tr("a quote is not closed"), line, start, end)
                name, after = part[1:close].strip("\u00a0 "), part[close + 1 :].strip()
                found = _NUMBER_AFTER.match(after)
                if after and found is None:
                    raise self.error(
                        tr("a number is expected, not `{value}`", value=after), line, start, end
                    )
                if found is None:
                    checks.append(Held(name, True, span=span))
                    continue
            else:
                found = VALUE_PATTERN.match(part)
                if found is None:
                    checks.append(Held(part, True, span=span))
                    continue
                name = found.group("name")
            number = int(found.group("n"))
            if abs(number) > MAX_NUMBER:
                raise self.error(tr("{value} is too large", value=number), line, start, end)
            op = found.group("op") or "="
            checks.append(Value(name, _OPERATORS.get(op, op), number, span=span))  # type: ignore[arg-type]
        return tuple(checks)


def _unquote(text: str) -> str:
    text = text.strip()
    for left, right in (('"', '"'), ("«", "»")):
        if len(text) >= 2 and text.startswith(left) and text.endswith(right):
            return text[1:-1].strip("\u00a0 ")
    return text


def _strip_comment(line: str) -> str:
    stripped = line.lstrip()
    if stripped.startswith(("#", "//")):
        return ""
    quoted = False
    for index, char in enumerate(line):
        if char in '"«»':
            quoted = char != "»" and not (quoted and char == '"')
        elif (
            not quoted
            and index > 0
            and line[index - 1].isspace()
            and (
                char == "#"
                and index + 1 < len(line)
                and not line[index + 1].isdigit()
                or line.startswith("//", index)
            )
        ):
            return line[:index]
    return line


def _split(text: str, separator: str) -> list[tuple[int, str]]:
    """Pieces of ``text`` between separators outside quotes, with their offsets."""
    pieces: list[tuple[int, str]] = []
    start = 0
    quoted = False
    for index, char in enumerate(text):
        if char == '"':
            quoted = not quoted
        elif char == "«":
            quoted = True
        elif char == "»":
            quoted = False
        elif char == separator and not quoted:
            pieces.append((start, text[start:index]))
            start = index + 1
    pieces.append((start, text[start:]))
    return pieces


def _segments(line: str) -> list[tuple[int, str]]:
    """The steps of a line (separated by ``/``), each with its 1-based column."""
    found = []
    for offset, piece in _split(line, "/"):
        if piece.strip():
            lead = len(piece) - len(piece.lstrip())
            found.append((offset + lead + 1, piece.strip()))
    return found
