"""An option a kind of test does not take is a located load error, not ignored."""

from __future__ import annotations

import pytest
from dedale.errors import BookLoadError
from dedale.language import load_book

BOOK = "---\ntitle: T\nlanguage: en\nruleset: {ruleset}\n---\n§ 1\n{line}\n> success -> 2\n"
BOOK += "> failure -> 2\n\n§ 2\n> victory\n"


@pytest.mark.parametrize(
    ("ruleset", "line", "option"),
    [
        ("df-classic", "> test your skill (risk)", "(risk) / (risque)"),
        ("reliques", "> test FOR+AGL (trained)", "(trained) / (maîtrisé)"),
        ("reliques", "> testez FOR+AGL (avantage)", "(advantage) / (avantage)"),
        ("d20", "> check DEX hard (mental)", "(mental)"),
        ("d20", "> action DEX difficile (risque)", "(risk) / (risque)"),
    ],
)
def test_an_option_the_test_does_not_take_is_refused_at_its_line(tmp_path, ruleset, line, option):
    path = tmp_path / "book.dd"
    path.write_text(BOOK.format(ruleset=ruleset, line=line), encoding="utf-8")
    with pytest.raises(BookLoadError) as raised:
        load_book(path)
    error = raised.value.errors[0]
    assert str(error.message).startswith(f"{option} does not apply to")
    assert (error.span.line, error.span.column) == (7, 3)
    assert str(error.hint).startswith("this test takes:")


@pytest.mark.parametrize(
    ("ruleset", "line"),
    [
        ("reliques", "> test FOR+AGL +1 (risk, physical)"),
        ("reliques", "> testez ESP+CHA (mental)"),
        ("d20", "> check DEX hard (athletics, advantage, trained)"),
    ],
)
def test_the_options_a_test_takes_still_load(tmp_path, ruleset, line):
    path = tmp_path / "book.dd"
    path.write_text(BOOK.format(ruleset=ruleset, line=line), encoding="utf-8")
    load_book(path)
