"""Simple dice expressions (``2d6``, ``1d6+6``, ``-d4 + 2``) are read without Lark
(``dice._simple``, issue 14.11: Lark is not imported by a validation that needs only
them): the same expression, or the same error at the same place, as the grammar's parser
gives, on every string of the characters the fast path takes."""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys

import pytest
from dedale.errors import DiceExpressionError
from dedale.rules import dice
from dedale.span import Span

EDGES = [
    "2d6", "1d6+6", "d6", "D6", "2D6-1", "-2d6", "- 2d6", " 2d6 + 12 ", "\t1d6\t+\t3", "0d6",
    "2d1", "2d0", "7", "-7", "007", "2d6+", "+2d6", "2d6++1", "2d6--1", "2d6 1", "2 d6",
    "2d6d6", "1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6+1d6", "99d6", "60d6+60d6",
    "1d6+99999999999999999999", "2d6-0", "d", "dd", "2dd6", "-", "", "  ", "1d1001",
    "1000d2", "10-2d6", "1d6-d6", "12345678901234567890d6", "2d6 - 1 + 3 - d4",
]  # fmt: skip


def _outcome(parse, text: str, origin: Span | None):
    try:
        return ("ok", parse(text, origin))
    except DiceExpressionError as error:
        return ("error", str(error.message), error.span, error.hint)


def _check(text: str) -> None:
    origin = Span("book.yaml", 4, 10)
    for where in (None, origin):
        expected = _outcome(dice._parse_lark, text, where)
        if not text.strip():
            expected = _outcome(dice._parse, text, where)  # the empty text: before Lark
        assert _outcome(dice._parse, text, where) == expected, (text, where)


@pytest.mark.parametrize("text", EDGES)
def test_simple_expressions_as_the_grammar_reads_them(text):
    _check(text)


def test_random_strings_of_the_simple_characters():
    rng = random.Random(14_11)
    alphabet = " \t0123456789dD+-"
    weights = [3, 1, 4, 4, 4, 3, 2, 2, 2, 2, 2, 2, 6, 2, 5, 4]
    for length in itertools.chain(range(1, 9), [12, 20, 40]):
        for _ in range(150):
            _check("".join(rng.choices(alphabet, weights, k=length)))


def test_the_fast_path_takes_the_usual_expressions():
    for text in ("2d6", "1d6+6", "2d6+12", "d20", "4d6-3", " 1d6 + 1 "):
        assert dice._simple(text) is not None
    for text in ("2d6+SKILL", "1d20+bonus(DEX)", "2d20kh1", "+1", "2d6 1", "١d6"):
        assert dice._simple(text) is None


def test_a_validation_of_simple_dice_does_not_import_lark(tmp_path):
    book = tmp_path / "book.dd"
    book.write_text(
        "---\ntitle: Dice\nlanguage: en\nruleset: df-classic\nstart: 1\n---\n"
        "§ 1\nA goblin.\n> fight\n> enemy GOBLIN SKILL 5 STAMINA 4\n> win -> 2\n\n"
        "§ 2\nWon.\n> victory\n",
        encoding="utf-8",
    )
    code = (
        "import sys, io, contextlib\n"
        "from dedale.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['validate', '--runs', '0', '--format', 'json', {str(book)!r}])\n"
        "print(sorted(name for name in sys.modules if name.split('.')[0] == 'lark'))\n"
    )
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("DEDALE_NO_CACHE", None)
    for _ in range(2):  # the first run fills the fast paths' cache (from Lark's parser)
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
