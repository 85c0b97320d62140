"""Fast paths for the commonest rule-line shapes, so that Lark only parses the rest.

Each recogniser builds exactly the items the grammar + transformer would build for the
line (spans included) or returns None, in which case the line goes through Lark. The
keyword patterns are taken from the grammar itself, so spellings never drift apart;
tests/language/test_fast_path.py checks every fast result against Lark's.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from dedale import ast
from dedale.i18n.french import split_article
from dedale.language.keywords import NAMED_TESTS, OUTCOMES, fold
from dedale.language.transform_parts import FightPart, Header
from dedale.limits import MAX_DIGITS, PARAGRAPH, STAT
from dedale.limits import number as _number
from dedale.span import Span

_FAST_HEADER = re.compile(r"([ \t]*)(?:§|#)[ \t]*(\d+)(?:[ \t]+([^\s\d].*))?[ \t]*$")
_FAST_CHOICE = re.compile(r"([ \t]*)->[ \t]*(\d+)(?:[ \t]+([^\s(),].*))?[ \t]*$")


TERMINALS = (
    "OUTCOME", "WIN", "VICTORY", "_LOSE", "_DEFEAT", "_ENEMY", "_ENEMY_DAMAGE", "ENEMY_NAME",
    "WORD", "_FIGHT", "_TEST", "YOUR", "_TAKE", "ITEM_TEXT", "DEATH", "IF", "NAME", "_SET",
    "_NOTE", "_CLEAR", "_CODEWORD",
)  # fmt: skip
"""The grammar's terminals the fast paths' patterns are made of."""
KEYWORD = "(after if)"
"""The sources' key of what may stand where a condition starts (:func:`_after_if`)."""


def _terminal_sources() -> dict[str, str]:
    """The regular expressions of :data:`TERMINALS` and :data:`KEYWORD`, read from the
    Lark parser (built for it)."""
    from dedale.language.parser import book_parser

    parser = book_parser()
    found = {name: parser.get_terminal(name).pattern.to_regexp() for name in TERMINALS}
    found[KEYWORD] = _after_if(parser).pattern
    return found


@lru_cache(maxsize=1)
def _patterns() -> dict[str, re.Pattern[str]]:
    from dedale.language import fastpath_cache
    from dedale.language.parser import grammar_text

    # kept between runs: a book whose lines all take a fast path never builds the parser
    return fastpath_cache.sources(
        grammar_text(), (*TERMINALS, KEYWORD), _terminal_sources, _compiled
    )


def _compiled(sources: dict[str, str]) -> dict[str, re.Pattern[str]]:
    """The fast paths' patterns, made of the terminals' ``sources`` (``re.error`` when one
    does not compile)."""

    def term(name: str) -> str:
        return sources[name]

    gt = r"([ \t]*)>[ \t]*"
    branch_kw = "|".join(
        f"(?P<{name}>{term(name)})" for name in ("OUTCOME", "WIN", "VICTORY", "_LOSE", "_DEFEAT")
    )
    return {
        "branch": re.compile(gt + f"(?:{branch_kw})[ \\t]*(->)[ \\t]*(\\d+)[ \\t]*$"),
        "enemy": re.compile(gt + f"({term('_ENEMY')})[ \\t]+"),
        "enemy_damage": re.compile(term("_ENEMY_DAMAGE")),
        "enemy_name": re.compile(term("ENEMY_NAME")),
        "pair": re.compile(f"[ \\t]+({term('WORD')})[ \\t]+(\\d+)(?=[ \\t]|$)"),
        "fight": re.compile(gt + f"({term('_FIGHT')})[ \\t]*$"),
        "test": re.compile(
            gt + f"({term('_TEST')})[ \\t]+{term('YOUR')}[ \\t]+({term('WORD')})[ \\t]*$"
        ),
        "take": re.compile(gt + f"({term('_TAKE')})[ \\t]+({term('ITEM_TEXT')})$"),
        "ending": re.compile(
            gt + f"(?:(?P<VICTORY>{term('VICTORY')})|(?P<DEATH>{term('DEATH')}))[ \\t]*$"
        ),
        "codeword": re.compile(
            gt + f"(?:(?P<SET>{term('_SET')})|(?P<NOTE>{term('_NOTE')})|(?P<CLEAR>"
            f"{term('_CLEAR')}))[ \\t]+{term('_CODEWORD')}[ \\t]+(?P<name>{term('NAME')})[ \\t]*$"
        ),
        "if_codeword": re.compile(f"({term('_CODEWORD')})[ \\t]+"),
        "if_choice": re.compile(f"([ \\t]*)->[ \\t]*(\\d+)[ \\t]*\\([ \\t]*{term('IF')}[ \\t]+"),
        "name": re.compile(term("NAME")),
        "choice_end": re.compile("[ \\t]*\\)(?:[ \\t]+([^\\s(),].*))?[ \\t]*$"),
        "keyword": re.compile(sources[KEYWORD]),
    }


def _after_if(parser: Any) -> re.Pattern[str]:
    """What may stand where a condition starts (``-> 7 (if ``), other than a name: where
    one of these terminals matches, Lark's contextual lexer may take it before NAME, and
    the line goes through Lark. The terminals are read from the LALR table, by feeding the
    parser the tokens of ``-> 7 (if`` (no text is lexed). Matches everything (no fast path
    for these choices) if the grammar no longer parses that way."""
    from lark import Token
    from lark.exceptions import LarkError

    try:
        interactive = parser.parse_interactive("")
        for kind, value in (("ARROW", "->"), ("INT", "7"), ("LPAR", "("), ("IF", "if")):
            interactive.feed_token(Token(kind, value))
        accepted = set(interactive.choices())
    except (LarkError, KeyError):
        return re.compile("")
    names = sorted(t.name for t in parser.terminals if t.name in accepted and t.name != "NAME")
    if "NAME" not in accepted:
        return re.compile("")
    return re.compile("|".join(parser.get_terminal(name).pattern.to_regexp() for name in names))


def fast_line(line: str, number: int, file: str) -> Any | None:
    """The item the grammar would build for this line, or None (then Lark parses it)."""
    stripped = line.lstrip(" \t")
    if not stripped:
        return None
    first = stripped[0]
    if first == "-":
        return _choice(line, number, file) or _if_choice(line, number, file)
    if first in "§#":
        return _header(line, number, file)
    if first != ">":
        return None
    folded = fold(line)
    for recognise in (_branch, _enemy, _fight, _test, _take, _codeword, _ending):
        item = recognise(line, folded, number, file)
        if item is not None:
            return item
    return None


def _span(file: str, number: int, start: int, end: int) -> Span:
    """Span of line[start:end] (0-based string indexes)."""
    return Span(file, number, start + 1, number, end + 1)


def _choice(line: str, number: int, file: str) -> ast.Choice | None:
    match = _FAST_CHOICE.match(line)
    if match is None:
        return None
    end = len(line) if match.group(3) else match.end(2)
    where = _span(file, number, match.start(2), match.end(2))
    target = ast.ParagraphRef(span=where, number=_number(match.group(2), PARAGRAPH, where))
    return ast.Choice(
        span=_span(file, number, len(match.group(1)), end),
        target=target,
        text=(match.group(3) or "").strip(),
    )


def _if_choice(line: str, number: int, file: str) -> ast.Choice | None:
    """``-> 12 (if Rope) Climb down``: a choice whose one option is a condition on an item
    named alone (no keyword, no other option: the rest goes through Lark)."""
    patterns = _patterns()
    folded = fold(line)
    match = patterns["if_choice"].match(folded)
    if match is None:
        return None
    codeword = patterns["if_codeword"].match(folded, match.end())  # (if codeword X)
    if codeword is None and patterns["keyword"].match(folded, match.end()):
        return None
    name = patterns["name"].match(folded, match.end() if codeword is None else codeword.end())
    if name is None:
        return None
    end = patterns["choice_end"].match(folded, name.end())
    if end is None:
        return None
    where = _span(file, number, match.start(2), match.end(2))
    target = ast.ParagraphRef(span=where, number=_number(match.group(2), PARAGRAPH, where))
    named = line[name.start() : name.end()].strip()
    if codeword is None:
        condition = ast.HasItem(span=_span(file, number, name.start(), name.end()), item=named)
    else:
        where = _span(file, number, codeword.start(1), name.end())
        condition = ast.HasCodeword(span=where, codeword=named)
    close = folded.index(")", name.end()) + 1
    text = end.group(1)
    return ast.Choice(
        span=_span(file, number, len(match.group(1)), len(line) if text else close),
        target=target,
        text=line[end.start(1) :].strip() if text else "",
        condition=condition,
    )


def _header(line: str, number: int, file: str) -> Header | None:
    match = _FAST_HEADER.match(line)
    if match is None:
        return None
    label = match.group(3)
    end = len(line) if label else match.end(2)
    if label:
        label = label.strip()
        if label.startswith("(") and label.endswith(")"):
            label = label[1:-1].strip()
    value = match.group(2)
    if len(value) > MAX_DIGITS or int(value) > PARAGRAPH.high:
        _number(value, PARAGRAPH, _span(file, number, match.start(2), match.end(2)))  # raises
    return Header(_span(file, number, len(match.group(1)), end), int(value), label or None)


def _branch(line: str, folded: str, number: int, file: str) -> Any | None:
    match = _patterns()["branch"].match(folded)
    if match is None:
        return None
    keyword = next(g for g in ("OUTCOME", "WIN", "VICTORY", "_LOSE", "_DEFEAT") if match.group(g))
    start = match.start(keyword)
    arrow = match.start(match.re.groups - 1)
    target_start, target_end = match.span(match.re.groups)
    where = _span(file, number, target_start, target_end)
    target = ast.ParagraphRef(
        span=where, number=_number(match.group(match.re.groups), PARAGRAPH, where)
    )
    whole = _span(file, number, start, target_end)
    if keyword == "OUTCOME":
        outcome = OUTCOMES[" ".join(match.group("OUTCOME").lower().split())]
        goto = ast.Goto(span=_span(file, number, arrow, target_end), target=target)
        return ast.Branch(span=whole, outcome=outcome, body=(goto,))
    side = "win" if keyword in ("WIN", "VICTORY") else "lose"
    return FightPart(whole, side, target)


def _enemy(line: str, folded: str, number: int, file: str) -> Any | None:
    patterns = _patterns()
    match = patterns["enemy"].match(folded)
    if match is None or patterns["enemy_damage"].match(folded, match.start(2)):
        return None
    name = patterns["enemy_name"].match(folded, match.end())
    if name is None:
        return None
    stats: list[tuple[str, int]] = []
    position = name.end()
    pair_re = patterns["pair"]
    end = position
    while position < len(folded):
        pair = pair_re.match(folded, position)
        if pair is None:
            break
        value = pair.group(2)
        if len(value) > MAX_DIGITS or not STAT.low <= int(value) <= STAT.high:
            _number(value, STAT, _span(file, number, pair.start(2), pair.end(2)))  # raises
        stats.append((line[pair.start(1) : pair.end(1)], int(value)))
        end = position = pair.end()
    if not stats or folded[position:].strip(" \t"):
        return None
    body_span = _span(file, number, name.start(), end)
    article, written = split_article(line[name.start() : name.end()].strip())
    enemy = ast.Enemy(span=body_span, name=written, stats=tuple(stats), article=article)
    return FightPart(_span(file, number, match.start(2), end), "enemy", enemy)


def _fight(line: str, folded: str, number: int, file: str) -> Any | None:
    match = _patterns()["fight"].match(folded)
    if match is None:
        return None
    return ast.Fight(span=_span(file, number, match.start(2), match.end(2)), enemies=())


def _test(line: str, folded: str, number: int, file: str) -> Any | None:
    match = _patterns()["test"].match(folded)
    if match is None:
        return None
    word = line[match.start(3) : match.end(3)]
    key = fold(word).lower()
    return ast.Test(
        span=_span(file, number, match.start(2), match.end(3)),
        name=NAMED_TESTS.get(key, word.strip()),
    )


def _take(line: str, folded: str, number: int, file: str) -> Any | None:
    match = _patterns()["take"].match(folded)
    if match is None:
        return None
    return ast.GainItem(
        span=_span(file, number, match.start(2), match.end(3)),
        item=line[match.start(3) : match.end(3)].strip(),
    )


def _codeword(line: str, folded: str, number: int, file: str) -> Any | None:
    """``> set codeword X``, ``> notez mot-code X``, ``> clear codeword X``."""
    match = _patterns()["codeword"].match(folded)
    if match is None:
        return None
    verb = next(name for name in ("SET", "NOTE", "CLEAR") if match.group(name))
    node = ast.ClearCodeword if verb == "CLEAR" else ast.SetCodeword
    return node(
        span=_span(file, number, match.start(verb), match.end("name")),
        codeword=line[match.start("name") : match.end("name")].strip(),
    )


def _ending(line: str, folded: str, number: int, file: str) -> Any | None:
    match = _patterns()["ending"].match(folded)
    if match is None:
        return None
    keyword = "VICTORY" if match.group("VICTORY") else "DEATH"
    return ast.Ending(
        span=_span(file, number, match.start(keyword), match.end(keyword)),
        kind="victory" if keyword == "VICTORY" else "death",
    )
