"""The bounds Dédale puts on every input, and the one guarded reader of author numbers.

Books, rulesets and book.yaml are untrusted input: each bound below keeps loading (and the
checks run on what was loaded) linear and small, and each is reported as a typed error at
the spot, with a hint. docs/robustness.md lists them with their reasons; change both
together.

``number(text, use, span)`` is the only way the loader turns author text into an int: it
refuses over-long digit strings before ``int()`` (Python refuses more than 4,300 digits
with a ValueError) and checks the range of the use (a paragraph number, a stat...).
"""

from __future__ import annotations

from dataclasses import dataclass

from dedale.errors import BookSyntaxError, DedaleError
from dedale.i18n import tr
from dedale.span import Span

# --------------------------------------------------------------------------- sizes
#: One paragraph file, book.yaml excluded (a 400-paragraph book is about 300 KB).
MAX_FILE_BYTES = 8_000_000
#: All the paragraph files of one book together.
MAX_BOOK_BYTES = 24_000_000
#: book.yaml, a single file's front matter, an author's ruleset file.
MAX_YAML_BYTES = 128_000
#: Paragraph files of one book folder.
MAX_FILES = 2_000
#: Paragraphs of one book (published gamebooks have 400; big amateur books a few thousand).
MAX_PARAGRAPHS = 20_000
#: Characters of a rule line (``>``, ``->`` and ``§`` lines).
MAX_RULE_LINE = 1_000
#: Characters of a prose line (a whole paragraph written on one line fits).
MAX_PROSE_LINE = 20_000
#: ``and``/``or`` (``et``/``ou``) and operators in one rule line's conditions and sums.
MAX_EXPRESSION_TERMS = 64
#: Parentheses open at once in one rule line.
MAX_NESTING = 12
#: YAML values (mappings, lists, scalars, keys) once aliases are expanded.
MAX_YAML_NODES = 10_000
#: Characters of YAML text values once aliases are expanded (a long text used many times).
MAX_YAML_CHARS = 1_000_000
#: YAML mappings and lists inside one another.
MAX_YAML_DEPTH = 40
#: Syntax errors reported for one file (each costs a few milliseconds to explain).
MAX_SYNTAX_ERRORS = 100
#: Rulesets that ``extends:`` one another in a chain.
MAX_EXTENDS_DEPTH = 8
#: Steps (dice x totals) an exact dice distribution may take: 100d1000 would need 10^10.
MAX_DISTRIBUTION_STEPS = 5_000_000
#: Outcomes enumerated for keep-highest/lowest dice (``4d6kh3`` has 1,296).
MAX_KEEP_OUTCOMES = 200_000
#: Terms (dice, numbers, names) of one dice expression (``1d20+bonus(DEX)+action`` has 3).
MAX_DICE_TERMS = 16
#: Digits of any number an author writes (no use below needs more).
MAX_DIGITS = 9


# --------------------------------------------------------------------------- numbers
@dataclass(frozen=True, slots=True)
class NumberUse:
    """What a number is for, and the range that makes sense for it."""

    what: str  # a tr() Message, translated with the message that names it
    low: int
    high: int


PARAGRAPH = NumberUse(tr("a paragraph number"), 0, 999_999)
STAT = NumberUse(tr("a stat value"), -9_999, 9_999)
AMOUNT = NumberUse(tr("an amount"), 0, 999_999)
NUMBER = NumberUse(tr("a number"), 0, 999_999)
COUNT = NumberUse(tr("a count"), 0, 9_999)
DICE_COUNT = NumberUse(tr("a number of dice"), 1, 100)
DICE_SIDES = NumberUse(tr("a number of sides"), 2, 1_000)
DICE_TOTAL = NumberUse(tr("a dice total"), -100_000, 100_000)
MODIFIER = NumberUse(tr("a modifier"), -999, 999)
#: A ruleset value: a stat bonus, a cost, a heal, a starting amount.
RULE_VALUE = NumberUse(tr("a ruleset value"), -9_999, 999_999)


def _shown(text: str) -> str:
    return text if len(text) <= 15 else f"{text[:12]}…"


def number(
    text: str | int,
    use: NumberUse,
    span: Span | None,
    error: type[DedaleError] = BookSyntaxError,
) -> int:
    """``text`` as an int within ``use``'s range, else ``error`` at ``span`` with a hint."""
    if isinstance(text, str) and len(text) <= MAX_DIGITS and text.isascii() and text.isdigit():
        value = int(text)  # the common case, kept fast: loading calls this for every number
        if use.low <= value <= use.high:
            return value
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    else:
        raw = "".join(str(text).split()).replace("_", "")
        digits = raw.lstrip("+-")
        if not digits.isdecimal() or not digits.isascii() or len(raw) - len(digits) > 1:
            raise error(
                tr("`{text}` is not a whole number", text=_shown(raw)),
                span,
                hint=tr("write {what} with the digits 0-9", what=use.what),
            )
        if len(digits.lstrip("0")) > MAX_DIGITS:
            raise error(
                tr("the number {text} is far too long", text=_shown(raw)),
                span,
                hint=_range(use),
            )
        value = int(raw)
    if not use.low <= value <= use.high:
        raise error(
            tr("{value} is out of range for {what}", value=value, what=use.what),
            span,
            hint=_range(use),
        )
    return value


def _range(use: NumberUse) -> str:
    return tr("{what} is from {low} to {high}", what=use.what, low=use.low, high=use.high)
