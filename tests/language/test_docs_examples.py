"""Every rule line quoted in docs/language.md parses (with a fight/test/roll/if before it)."""

from __future__ import annotations

import re
from pathlib import Path

from dedale.language.parser import parse_collecting

DOC = Path(__file__).resolve().parents[2] / "docs" / "language.md"
CONTEXT = (
    "§ 1\n> fight X SKILL 1 STAMINA 1\n> test your luck\n> roll 1d6\n> if Key: death\n"
    "> hidden number (1)\n"
)
# outcome lines of an optional test or of a comparison of two rolls (§ 30) follow one
OTHER_CONTEXT = CONTEXT.replace("> test your luck", "> roll 2d6 against 2d6 (optional)")
PLACEHOLDERS = ("…", "COND", "STATEMENT", "[", "NAME", "NOM", "...")


def test_every_quoted_rule_line_parses():
    quoted = re.findall(r"`((?:>|->) [^`]+)`", DOC.read_text("utf-8"))
    checked = 0
    for line in quoted:
        if any(mark in line for mark in PLACEHOLDERS):
            continue
        _result, errors = parse_collecting(CONTEXT + line + "\n", "doc.dd")
        if errors:
            _result, errors = parse_collecting(OTHER_CONTEXT + line + "\n", "doc.dd")
        if errors:  # a fight line quoted alone: its enemies follow it in a book
            text = CONTEXT + line + "\n> enemy Y SKILL 1 STAMINA 1\n"
            _result, errors = parse_collecting(text, "doc.dd")
        assert not errors, f"{line!r}: {errors[0]}"
        checked += 1
    assert checked > 100
