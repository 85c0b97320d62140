"""Write the TextMate grammar of .dd books: editors/vscode/syntaxes/dedale.tmLanguage.json.

    python tools/gen_tmgrammar.py           # write the grammar
    python tools/gen_tmgrammar.py --check   # exit 1 when the committed grammar is stale

The keywords of both languages come from the language's own tables: the vocabularies of
``dedale.language.keywords`` (directive words, choice options, test outcomes, fight modes)
and the keyword terminals of ``grammar/book.lark`` (written unaccented there, because the
loader folds accents and ignores case; here each letter matches both cases and each vowel
and ``c`` its accented forms, since TextMate sees the author's text as written).
tests/editors checks that the committed grammar is the one this script writes, and
tokenizes every sample book with it.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from dedale.language.keywords import (
    CHOICE_OPTION_WORDS,
    DIRECTIVE_WORDS,
    MODES,
    NAMED_TESTS,
    OUTCOMES,
    fold,
)

ROOT = Path(__file__).resolve().parent.parent
LARK = ROOT / "grammar" / "book.lark"
TARGET = ROOT / "editors" / "vscode" / "syntaxes" / "dedale.tmLanguage.json"

ACCENTS = {
    "a": "aàâä", "e": "eéèêë", "i": "iîï", "o": "oôö", "u": "uùûü", "c": "cç",
    "A": "AÀÂÄ", "E": "EÉÈÊË", "I": "IÎÏ", "O": "OÔÖ", "U": "UÙÛÜ", "C": "CÇ",
}  # fmt: skip
"""The accented letters French keywords use, by the letter they fold to."""
_TERMINAL = re.compile(r"^(_?[A-Z][A-Z_]*)(?:\.\d+)?:\s*/\(\?:(.*)\)\(\?!\[\\w'-\]\)(.*)/i\s*$")
_WORDY = re.compile(r"^[a-z'\\s+*()?:|\[\]^-]+$")
"""A terminal body made of words only (no digits, no names): a keyword."""
NOT_KEYWORDS = {"_TO", "_BY", "_OF", "_FROM", "STRUCK", "_ITS", "ALL", "HALF"}
"""Short words of the grammar that are also common prose-like words inside names."""
LOGIC = ("_AND", "_OR", "_NOT")
"""and/or/not (et/ou/pas): operators inside a choice's conditions only (``or`` is also the
French for gold, ``gagnez 12 or``)."""


def lark_keywords(text: str, names: tuple[str, ...] | None = None) -> list[str]:
    """The alternations of the grammar's keyword terminals, as written there (``names``:
    only those terminals; by default every keyword terminal but the logic ones)."""
    found = []
    for line in text.splitlines():
        match = _TERMINAL.match(line.strip())
        if match is None or match.group(1) in NOT_KEYWORDS:
            continue
        name = match.group(1)
        wanted = name in names if names is not None else name not in LOGIC
        if not wanted:
            continue
        body = match.group(2)
        if _WORDY.match(body) and "(?=" not in body and "(?!" not in body:
            found.append(body)
    return found


def vocabulary_words() -> list[str]:
    """The words of dedale.language.keywords' tables, folded and regex-escaped."""
    words = {*DIRECTIVE_WORDS, *CHOICE_OPTION_WORDS, *OUTCOMES, *MODES, *NAMED_TESTS}
    escaped = {re.escape(fold(word).lower()).replace("\\ ", " ") for word in words}
    return sorted((w.replace(" ", r"\s+") for w in escaped), key=lambda w: (-len(w), w))


def accented(pattern: str) -> str:
    """``pattern`` with each letter matching both cases and, for a foldable one, its
    accented forms too. Case is spelt out in classes (``[gG]``) rather than with ``(?i)``:
    Oniguruma compiles that about thirty times faster, once per editor start."""
    out: list[str] = []
    escaped = False
    in_class = False
    for char in pattern:
        if escaped:
            out.append(char)
            escaped = False
            continue
        if char == "\\":
            escaped = True
            out.append(char)
            continue
        if char == "[":
            in_class = True
        elif char == "]":
            in_class = False
        if not char.isalpha():
            out.append(char)
            continue
        lower, upper = char.lower(), char.upper()
        forms = ACCENTS.get(lower, lower) + ACCENTS.get(upper, upper)
        out.append(forms if in_class else f"[{forms}]")
    return "".join(out)


def keyword_pattern() -> str:
    """One regex matching any keyword of either language, as a whole word (the tables'
    words that a grammar terminal already matches are left out: a smaller regex compiles
    faster in the editor)."""
    bodies = lark_keywords(LARK.read_text(encoding="utf-8"))
    terminals = re.compile(r"(?:" + "|".join(bodies) + r")(?![\w'-])", re.IGNORECASE)
    for word in vocabulary_words():
        if not terminals.fullmatch(word.replace(r"\s+", " ").replace("\\", "")):
            bodies.append(word)
    unique = list(dict.fromkeys(accented(body) for body in bodies))
    return r"(?<![\w'-])(?:" + "|".join(unique) + r")(?![\w'-])"


def logic_pattern() -> str:
    """and/or/not in both languages."""
    bodies = lark_keywords(LARK.read_text(encoding="utf-8"), LOGIC)
    return r"(?<![\w'-])(?:" + "|".join(accented(body) for body in bodies) + r")(?![\w'-])"


def grammar() -> dict[str, Any]:
    """The whole TextMate grammar (scope ``source.dedale``)."""
    keyword = {"name": "keyword.control.dedale", "match": keyword_pattern()}
    logic = {"name": "keyword.operator.logical.dedale", "match": logic_pattern()}
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Dédale",
        "scopeName": "source.dedale",
        "fileTypes": ["dd"],
        "comment": "Generated by tools/gen_tmgrammar.py from the language's keyword tables: "
        "do not edit by hand.",
        "patterns": [
            {"include": "#front-matter"},
            {"include": "#comment"},
            {"include": "#header"},
            {"include": "#choice"},
            {"include": "#directive"},
            {"include": "#prose"},
        ],
        "repository": {
            "front-matter": {
                "name": "meta.front-matter.dedale",
                "begin": r"\A(---)[ \t]*$",
                "end": r"^(---)[ \t]*$",
                "beginCaptures": {"1": {"name": "punctuation.definition.front-matter.dedale"}},
                "endCaptures": {"1": {"name": "punctuation.definition.front-matter.dedale"}},
                "contentName": "meta.embedded.block.yaml",
                "patterns": [{"include": "source.yaml"}],
            },
            "comment": {
                "name": "comment.line.double-slash.dedale",
                "match": r"(?:^[ \t]*|(?<=[ \t]))(//).*$",
                "captures": {"1": {"name": "punctuation.definition.comment.dedale"}},
            },
            "header": {
                "name": "markup.heading.paragraph.dedale",
                "match": r"^[ \t]*(§|#)[ \t]*(\d+)(?:[ \t]+((?:(?![ \t]//).)*))?",
                "captures": {
                    "1": {"name": "punctuation.definition.heading.dedale"},
                    "2": {"name": "entity.name.section.paragraph-number.dedale"},
                    "3": {"name": "entity.name.tag.label.dedale"},
                },
            },
            "choice": {
                "name": "meta.choice.dedale",
                "begin": r"^[ \t]*(->|→)[ \t]*(?:(\d+)|(\?)|([^\W\d][\w'-]*))?",
                "beginCaptures": {
                    "1": {"name": "keyword.operator.arrow.dedale"},
                    "2": {"name": "constant.numeric.paragraph.dedale"},
                    "3": {"name": "keyword.operator.hidden-number.dedale"},
                    "4": {"name": "entity.name.tag.label.dedale"},
                },
                "end": "$",
                "patterns": [
                    {"include": "#comment"},
                    {"include": "#computed"},
                    {"include": "#group"},
                    {
                        "name": "string.unquoted.choice-text.dedale",
                        "match": r"[^\s(),](?:(?![ \t]//)[^\n])*",
                    },
                ],
            },
            "group": {
                "name": "meta.condition.dedale",
                "begin": r"\(",
                "end": r"\)",
                "beginCaptures": {"0": {"name": "punctuation.section.group.begin.dedale"}},
                "endCaptures": {"0": {"name": "punctuation.section.group.end.dedale"}},
                "patterns": [{"include": "#group"}, logic, {"include": "#rule-words"}],
            },
            "computed": {
                "name": "meta.computed-destination.dedale",
                "begin": r"\[",
                "end": r"\]",
                "beginCaptures": {"0": {"name": "punctuation.section.brackets.begin.dedale"}},
                "endCaptures": {"0": {"name": "punctuation.section.brackets.end.dedale"}},
                "patterns": [{"include": "#rule-words"}],
            },
            "directive": {
                "name": "meta.directive.dedale",
                "begin": r"^[ \t]*(>)(?!=)",
                "beginCaptures": {"1": {"name": "punctuation.definition.directive.dedale"}},
                "end": "$",
                "patterns": [
                    {"include": "#comment"},
                    {
                        "match": r"(->|→)[ \t]*(?:(\d+)|([^\W\d][\w'-]*))?",
                        "captures": {
                            "1": {"name": "keyword.operator.arrow.dedale"},
                            "2": {"name": "constant.numeric.paragraph.dedale"},
                            "3": {"name": "entity.name.tag.label.dedale"},
                        },
                    },
                    {"include": "#computed"},
                    {"include": "#group"},
                    {  # `> if A or B -> 40`: and/or/not are operators up to the arrow or `:`
                        "name": "meta.condition.dedale",
                        "begin": r"(?<![\w'-])(" + accented("if|si") + r")(?![\w'-])",
                        "beginCaptures": {"1": {"name": "keyword.control.dedale"}},
                        "end": r"(?=->|→|:|[ \t]//|$)",
                        "patterns": [{"include": "#group"}, logic, {"include": "#rule-words"}],
                    },
                    {"include": "#rule-words"},
                ],
            },
            "rule-words": {
                "patterns": [
                    {"include": "#interpolation"},
                    {
                        "name": "constant.numeric.dice.dedale",
                        "match": r"(?<![\w'-])\d*[dD]\d+(?:[+-]\d+)?(?![\w'-])",
                    },
                    {  # names in capitals: stats, codewords, enemies (before the keywords:
                        # HABILETÉ is a stat, `tentez votre habileté` a keyword)
                        "name": "variable.other.constant.stat.dedale",
                        "match": r"(?<![\w'-])\p{Lu}[\p{Lu}\d'-]+(?![\w'-])",
                    },
                    keyword,
                    {"name": "keyword.operator.comparison.dedale", "match": r"<=|>=|!=|==|=|<|>"},
                    {"name": "keyword.operator.arithmetic.dedale", "match": r"[+\-*×/]"},
                    {"name": "constant.numeric.dedale", "match": r"\d+"},
                    {"name": "punctuation.separator.dedale", "match": r"[,;:]"},
                ],
            },
            "prose": {
                "patterns": [
                    {"include": "#interpolation"},
                    {
                        "name": "markup.bold.dedale",
                        "match": r"(\*\*)(?=\S)(.+?)(?<=\S)(\*\*)",
                        "captures": {
                            "1": {"name": "punctuation.definition.bold.dedale"},
                            "3": {"name": "punctuation.definition.bold.dedale"},
                        },
                    },
                    {
                        "name": "markup.italic.dedale",
                        "match": r"(?<!\*)(\*)(?=[^\s*])(.+?)(?<=[^\s*])(\*)(?!\*)",
                        "captures": {
                            "1": {"name": "punctuation.definition.italic.dedale"},
                            "3": {"name": "punctuation.definition.italic.dedale"},
                        },
                    },
                    {"name": "constant.character.escape.dedale", "match": r"\{\{|\}\}"},
                ],
            },
            "interpolation": {
                "name": "meta.interpolation.dedale",
                "match": r"(\{)(?!\{)([^{}\n]+)(\})",
                "captures": {
                    "1": {"name": "punctuation.definition.interpolation.begin.dedale"},
                    "2": {"name": "variable.other.interpolation.dedale"},
                    "3": {"name": "punctuation.definition.interpolation.end.dedale"},
                },
            },
        },
    }


def render() -> str:
    return json.dumps(grammar(), ensure_ascii=False, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the grammar is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python tools/gen_tmgrammar.py")
            return 1
        return 0
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
