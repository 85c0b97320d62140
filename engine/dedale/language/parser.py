"""Paragraph text -> AST: line classification, the Lark LALR parser, author-facing errors.

A paragraph file has three kinds of lines: headers (``§ 12``), rule lines (``>`` directives
and ``->`` choices) and prose. Prose and comment lines are blanked out before Lark runs
(line numbers are kept), so the grammar only sees the short rule lines: this is what makes
loading fast. When the file does not parse, each rule line is parsed on its own so that
every bad line is reported, not just the first.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from functools import lru_cache
from typing import TYPE_CHECKING

from dedale import ast, grammars, limits
from dedale.errors import BookLoadError, BookSyntaxError, DedaleError
from dedale.i18n import Localised, Message, tr
from dedale.language.assemble import assemble
from dedale.language.bounds import check_items, check_lines
from dedale.language.fastpath import fast_line
from dedale.language.keywords import (
    CHOICE_OPTION_WORDS,
    DIRECTIVE_WORDS,
    FRENCH_WORDS,
    TERMINAL_NAMES,
    fold,
)
from dedale.span import Span

if TYPE_CHECKING:  # at run time: set by _import_lark when a line first needs Lark
    from lark import Lark, Token, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
    from lark.exceptions import UnexpectedToken

    from dedale.language.transform import LineTransformer

_HEADER = re.compile(r"[ \t]*(?:§|#)[ \t]*\d")
_RULE = re.compile(r"[ \t]*(?:>|->|→)")
_COMMENT = re.compile(r"[ \t]*//")
_COMMENT_START = re.compile(r"[ \t]//")


def grammar_text() -> str:
    """The text of grammar/book.lark (shipped in the package as dedale.grammar)."""
    return grammars.grammar_text("book.lark")


_LARK_NAMES = ("UnexpectedCharacters", "UnexpectedEOF", "UnexpectedInput", "UnexpectedToken")


def _import_lark() -> None:
    """Import Lark and the tree's transformer (into this module's names) when a line first
    needs them: a book whose lines all take a fast path (language.fastpath) never imports
    Lark (~35 ms of a validation's start, issue 14.11)."""
    if "LineTransformer" in globals():
        return
    import lark
    from lark import exceptions

    from dedale.language.transform import LineTransformer

    names = {name: getattr(exceptions, name) for name in _LARK_NAMES}
    globals().update(names, Lark=lark.Lark, Token=lark.Token, Tree=lark.Tree,
                     LineTransformer=LineTransformer)  # fmt: skip


@lru_cache(maxsize=1)
def book_parser() -> Lark:
    """The LALR parser of grammar/book.lark, built once on first use.

    Building the LALR tables takes 0.1-0.3 s; their cache (see dedale.grammars) brings
    later starts down to about 10 ms.
    """
    _import_lark()
    grammar = grammar_text()
    return Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        propagate_positions=True,
        maybe_placeholders=False,
        cache=grammars.table_cache(grammar, "book-grammar"),
    )


def split_lines(text: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """Rule/header lines (trailing ``//`` comments cut) and prose lines, with line numbers."""
    rules: list[tuple[int, str]] = []
    prose: list[tuple[int, str]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if _RULE.match(line) or _HEADER.match(line):
            if "//" in line:
                line = _cut_comment(line)
            rules.append((number, line))
        elif _COMMENT.match(line):
            continue
        else:
            prose.append((number, line))
    return rules, prose


def _cut_comment(line: str) -> str:
    """The line without its trailing ``  // comment`` (linear: no regex backtracking)."""
    found = _COMMENT_START.search(line)
    return line if found is None else line[: found.start() + 1].rstrip(" \t")


def parse_text(text: str, file: str) -> ast.ParagraphFile:
    """Parse one paragraph file's text; raise BookLoadError with every error found."""
    paragraph_file, errors = parse_collecting(text, file)
    if errors:
        raise BookLoadError(sorted(errors, key=lambda e: (e.span.line, e.span.column)))
    return paragraph_file


def parse_collecting(text: str, file: str) -> tuple[ast.ParagraphFile, list[DedaleError]]:
    """Parse what can be parsed and return it with the list of errors (possibly empty)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = " " + text[1:]
    rules, prose = split_lines(text)
    errors: list[DedaleError] = []
    rules, prose = check_lines(rules, prose, file, errors)
    items = check_items(_parse_rules(rules, file, errors), dict(rules), errors)
    indents = {number: len(line) - len(line.lstrip(" \t")) for number, line in rules}
    return assemble(file, items, prose, errors, indents), errors


def _layout(rules: list[tuple[int, str]]) -> str:
    """The rule lines at their line numbers, other lines empty."""
    parts: list[str] = []
    previous = 0
    for number, line in rules:
        parts.append("\n" * (number - previous - 1 if previous else number - 1))
        parts.append(line if not previous else "\n" + line)
        previous = number
    return "".join(parts)


def lark_line_items(line: str, number: int, file: str) -> list[object]:
    """What Lark alone makes of one rule line (no fast path; for tests)."""
    errors: list[DedaleError] = []
    items = _parse_rules([(number, line)], file, errors, use_fast=False)
    if errors:
        raise BookLoadError(errors)
    return [item for _, item in items]


def _parse_rules(
    rules: list[tuple[int, str]], file: str, errors: list[DedaleError], use_fast: bool = True
) -> list[tuple[int, object]]:
    if not rules:
        return []
    fast: list[tuple[int, object]] = []
    rest: list[tuple[int, str]] = []
    for number, line in rules:
        try:
            item = fast_line(line, number, file) if use_fast else None
        except DedaleError as error:  # a number out of range, ...
            errors.append(error)
            continue
        if item is None:
            rest.append((number, line))
        else:
            fast.append((number, item))
    if not rest:
        return fast  # the parser is built only for the lines that need it
    parser = book_parser()
    original = _layout(rest)
    try:
        tree = parser.parse(fold(original))
        items = LineTransformer(file, original).transform(tree)
        return sorted(fast + [(item.span.line, item) for item in items], key=_line_of)
    except (UnexpectedInput, DedaleError):  # then line by line, to report every bad line
        pass
    result: list[tuple[int, object]] = fast
    # Slow path, to report every bad line: halves of the failing lines are parsed again
    # until the bad lines stand alone (about two more parses of the file for one typo).
    # A chunk is parsed on its own and its positions moved to its lines afterwards:
    # parsing each line after ``number - 1`` newlines made this path quadratic (95 s for
    # one typo in an 8,000-paragraph file).
    reported = 0
    middle = len(rest) // 2
    stack = [rest[middle:], rest[:middle]] if len(rest) > 1 else [rest]
    while stack:
        chunk = stack.pop()
        if len(chunk) > 1:
            try:
                result.extend(_parse_chunk(parser, chunk, file))
            except (UnexpectedInput, DedaleError):
                middle = len(chunk) // 2
                stack.extend((chunk[middle:], chunk[:middle]))
            continue
        number, line = chunk[0]
        try:
            tree = parser.parse(fold(line))
        except UnexpectedInput as error:
            if isinstance(getattr(error, "line", None), int) and error.line >= 1:
                error.line += number - 1
            errors.append(_syntax_error(error, file, number, line))
            reported += 1
            if reported >= limits.MAX_SYNTAX_ERRORS:
                errors.append(_stopped(file, number))
                break
            continue
        _move_to_line(tree, number)
        try:
            line_items = LineTransformer(file, line).transform(tree)
        except DedaleError as error:  # a number out of range, ...
            errors.append(_in_file(error, file))
            continue
        for item in line_items:
            result.append((number, item))
    return sorted(result, key=_line_of)


def _parse_chunk(parser: Lark, chunk: list[tuple[int, str]], file: str) -> list[tuple[int, object]]:
    """The items of consecutive rule lines parsed together (raises if one is bad)."""
    first = chunk[0][0]
    text = _layout([(number - first + 1, line) for number, line in chunk])
    tree = parser.parse(fold(text))
    _move_to_line(tree, first)
    return [(item.span.line, item) for item in LineTransformer(file, text).transform(tree)]


def _move_to_line(tree: Tree, number: int) -> None:
    """Give the positions of a tree parsed from one line alone the line's number."""
    _import_lark()
    shift = number - 1
    if not shift:
        return
    for subtree in tree.iter_subtrees():
        meta = subtree.meta
        if not meta.empty:
            meta.line += shift
            meta.end_line += shift
        for child in subtree.children:
            if isinstance(child, Token) and child.line is not None:
                child.line += shift
                if child.end_line is not None:
                    child.end_line += shift


def _stopped(file: str, number: int) -> BookSyntaxError:
    return BookSyntaxError(
        tr("too many errors: the rest of this file was not checked"),
        Span(file, number, 1),
        hint=tr("fix these {count} first", count=limits.MAX_SYNTAX_ERRORS),
    )


def _in_file(error: DedaleError, file: str) -> DedaleError:
    """The error with its span in ``file`` (token helpers raise without the file name)."""
    if error.span is not None and not error.span.file:
        error.span = dataclasses.replace(error.span, file=file)
    return error


def _line_of(entry: tuple[int, object]) -> int:
    return entry[0]


# --------------------------------------------------------------------------- messages

_WORD_AT = re.compile(r"[^\W\d][\w'’-]*(?:[ \t]+[^\W\d][\w'’-]*)?")


def _syntax_error(error: UnexpectedInput, file: str, number: int, line: str) -> BookSyntaxError:
    _import_lark()
    column = getattr(error, "column", None)
    at_end = isinstance(error, UnexpectedEOF) or (
        isinstance(error, UnexpectedToken) and error.token.type in ("$END", "_NL")
    )
    if (
        at_end
        or not isinstance(column, int)
        or column < 1
        or getattr(error, "line", number) != number
    ):
        column = len(line.rstrip()) + 1
    stripped = line.lstrip()
    lead = len(line) - len(stripped)
    span_end = _token_end(line, column)
    span = Span(file, number, column, number, span_end)
    found = line[column - 1 : span_end - 1].strip() or None

    # The first word after ">" is not a directive we know.
    if stripped.startswith(">"):
        start = lead + 1 + (len(stripped[1:]) - len(stripped[1:].lstrip())) + 1
        if column == start and not at_end:
            word = _WORD_AT.match(line, column - 1)
            written = word.group(0) if word else line[column - 1 :].split(" ")[0]
            first = written.split()[0] if written else written
            message = tr("unknown directive `{word}`", word=first) if first else None
            return BookSyntaxError(
                message or tr("empty directive line"),
                Span(file, number, column, number, column + max(1, len(first))),
                hint=_suggest(written, DIRECTIVE_WORDS)
                or tr("see docs/language.md for the list of directives"),
            )
        if line[: column - 1].rstrip().endswith(("(", ",")) and "->" not in stripped[:2]:
            pass
    if stripped.startswith(("->", "→")):
        arrow_end = lead + (2 if stripped.startswith("->") else 1)
        after = line[arrow_end:]
        target_col = arrow_end + len(after) - len(after.lstrip()) + 1
        if column == target_col:
            return BookSyntaxError(
                tr("a choice needs a paragraph number (or label) right after `->`"),
                span,
                hint=tr("write it like `-> 12 Open the door`"),
            )
        if line[: column - 1].rstrip().endswith(("(", ",", ";")):
            word = _WORD_AT.match(line, column - 1)
            written = word.group(0) if word else (found or "")
            return BookSyntaxError(
                tr("unknown choice option `{word}`", word=written.split()[0] if written else ""),
                span,
                hint=_suggest(written, CHOICE_OPTION_WORDS)
                or tr(
                    "choice options are `if ...`, `pay N gold`, `give ITEM`, `disabled`, "
                    "`revisit` (or `si`, `payez`, `donnez`, `grisé`, `revisite`), and effects: "
                    "`gain 4 STAMINA`, `take Lamp`, `set codeword X`... (`gagnez`, `prenez`, "
                    "`notez mot-code`...)"
                ),
            )
    if "ENEMY_NAME" in _expected_names(error):
        return BookSyntaxError(
            tr("an enemy needs a name followed by its stats"),
            span,
            hint=tr(
                "write it like `enemy GOBLIN SKILL 7 STAMINA 6` / "
                "`ennemi GOBELIN HABILETÉ 7 ENDURANCE 6`"
            ),
        )
    known = _known_mistake(line)
    if known is not None:
        message, hint = known
        return BookSyntaxError(message, span, hint)
    expected = _expected(error)
    if found and expected:
        message = tr("unexpected `{found}`; expected {expected}", found=found, expected=expected)
    elif found:
        message = tr("unexpected `{found}`", found=found)
    elif expected:
        message = tr("unexpected end of line; expected {expected}", expected=expected)
    else:
        message = tr("unexpected end of line")
    return BookSyntaxError(message, span)


# Common mistakes, recognised by the parser state they fail in (Lark's match_examples).
# Each label is (message, hint); the examples are folded text, as the parser sees it.
KNOWN_MISTAKES: dict[tuple[Message, Message], list[str]] = {
    (
        tr("an outcome needs `->` and a paragraph, or `:` and a directive"),
        tr("write `> lucky -> 30` or `> unlucky: lose 2 STAMINA`"),
    ): [
        "> lucky 30", "> echec 12", "> success go to 3", "> 1-2 40",
    ],
    (
        tr("a fight option needs `->` and a paragraph"),
        tr("write `> win -> 50`, `> escape -> 20` / `> victoire -> 50`, `> fuite -> 20`"),
    ): [
        "> win 50", "> escape 20", "> victoire 50", "> fuite 20",
    ],
    (
        tr("a paragraph number (or label) is missing"),
        tr("write `go to 30` / `allez au 30`"),
    ): [
        "> go to", "> allez au",
    ],
    (
        tr("a paragraph number (or label) is missing after `->`"),
        tr("write the number of the paragraph to turn to: `-> 30`"),
    ): [
        "> lucky ->", "> win ->", "> if Key ->",
    ],
    (
        tr("this change needs what to change: a stat or counter name"),
        tr("write `lose 2 STAMINA` / `perdez 2 ENDURANCE`"),
    ): [
        "> lose 2", "> gain 3", "> perdez 1d6",
    ],
    (
        tr("`set`/`fixez` needs `to`/`à` before the value"),
        tr("write `set SKILL to 8` / `fixez HABILETÉ à 8`"),
    ): [
        "> set SKILL 8", "> fixez HABILETE 8",
    ],
    (
        tr("`pay` needs an amount and a counter"),
        tr("write `(pay 5 gold)` / `(payez 5 or)`"),
    ): [
        "-> 1 (pay gold) x", "-> 1 (pay 5) x",
    ],
    (
        tr("a comparison needs a value on each side"),
        tr("for example `(if SKILL >= 10)`"),
    ): [
        "-> 1 (if SKILL >) x", "-> 1 (if SKILL >= ) x", "> if LUCK < : death",
    ],
    (
        tr("a condition is missing after `if`"),
        tr("for example `(if Rope)`, `(if codeword PANTHER)`, `(if SKILL >= 10)`"),
    ): [
        "-> 1 (if) x", "> if : death", "-> 1 (if , disabled) x",
    ],
    (
        tr("`)` is missing"),
        tr("close the parenthesis"),
    ): [
        "-> 1 (if Key x", "-> 1 (pay 5 gold x",
    ],
    (
        tr("a hidden-number prompt needs its answers in parentheses"),
        tr("write `-> ? (40, 56) If you know the number, turn to it`"),
    ): [
        "-> ? x", "-> ?", "-> ? ()", "-> hidden number x", "-> nombre secret",
    ],
    (
        tr("the answers of a hidden-number prompt need a closing `)`"),
        tr("write them like `(40, 56)`"),
    ): [
        "-> ? (40 x", "-> ? (40", "> hidden number (40", "> nombre secret (40, 56",
    ],
}  # fmt: skip


def _known_mistake(line: str) -> tuple[Message, Message] | None:
    """The message of KNOWN_MISTAKES whose examples fail like ``line``, if any."""
    try:
        book_parser().parse(fold(line.strip()))
    except UnexpectedToken as error:
        failure = error
    except UnexpectedInput:
        return None
    else:  # pragma: no cover - only called for lines that do not parse
        return None
    try:
        label = failure.match_examples(
            book_parser().parse, KNOWN_MISTAKES, token_type_match_fallback=True
        )
    except Exception:  # pragma: no cover - a message helper must never fail the load
        return None
    if not label:
        return None
    message, hint = label
    return message, hint


def _token_end(line: str, column: int) -> int:
    """Column just after the word starting at ``column`` (at least one character)."""
    index = column - 1
    if index >= len(line):
        return column + 1
    match = re.compile(r"[\w'’-]+|\S").match(line, index)
    return column + (len(match.group(0)) if match else 1)


def _expected_names(error: UnexpectedInput) -> set[str]:
    _import_lark()
    if isinstance(error, UnexpectedToken):
        return set(error.accepts or error.expected or ())
    if isinstance(error, UnexpectedCharacters):
        return set(error.allowed or ())
    if isinstance(error, UnexpectedEOF):
        return set(error.expected or ())
    return set()


def _expected(error: UnexpectedInput) -> str:
    """What the parser would have accepted, a list shown in the report's language: in a
    French report, the keywords' French spellings (``attendu : `->`, `combat`…``)."""
    names = _expected_names(error)
    lists = {}
    for lang in ("en", "fr"):
        described = sorted({shown for name in names if (shown := _describe(name, lang))})
        if not described:
            return ""
        if len(described) > 5:
            described = described[:5] + ["..."]
        lists[lang] = ", ".join(described)
    return Localised(lists)


def _describe(terminal: str, lang: str = "en") -> str:
    if terminal in TERMINAL_NAMES:
        return TERMINAL_NAMES[terminal].translate(lang)
    try:
        pattern = book_parser().get_terminal(terminal).pattern
    except KeyError:
        return ""
    value = pattern.value
    if pattern.type == "str":
        return f"`{value}`"
    if lang == "fr":
        french = _french_spelling(value)
        if french is not None:
            return f"`{french}`"
    first = re.sub(r"^\(\?:", "", value).split("|")[0].split(")")[0]
    first = first.replace(r"\s+", " ").replace("(?:", "").replace("\\", "")
    return f"`{first}`" if first.replace(" ", "").isalpha() else ""


@lru_cache(maxsize=256)
def _french_spelling(pattern: str) -> str | None:
    """The first French keyword a terminal's pattern matches (as the parser sees text:
    folded), or None."""
    try:
        compiled = re.compile(pattern, re.IGNORECASE)
    except re.error:
        return None
    for word in FRENCH_WORDS:
        if compiled.fullmatch(fold(word)):
            return word
    return None


def _suggest(written: str, choices: tuple[str, ...]) -> str | None:
    """``did you mean `fight`?`` for a misspelt keyword (one or two words)."""
    if not written:
        return None
    key = fold(written).lower()
    folded = {fold(c).lower(): c for c in choices}
    for candidate in (key, key.split()[0]):
        close = difflib.get_close_matches(candidate, list(folded), n=1, cutoff=0.7)
        if close:
            return tr("did you mean `{word}`?", word=folded[close[0]])
    return None


def token_text(token: Token) -> str:
    """The token's text (for tests)."""
    return str(token)
