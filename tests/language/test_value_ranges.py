"""Values out of the ruleset's range (issue 14.9): a d20 difficulty of 0 or 60, a reliques
difficulty of -7, a test or a stat the ruleset lacks are load errors at their line; the
extreme values a ruleset allows play to the end without a runtime error."""

from __future__ import annotations

import pytest
from dedale.errors import BookLoadError
from dedale.language import load_book
from dedale.validator import validate_path

BOOK = "---\ntitle: T\nlanguage: en\nruleset: {ruleset}\n---\n§ 1\n{line}\n> success -> 2\n"
BOOK += "> failure -> 2\n\n§ 2\n> victory\n"


def _write(tmp_path, ruleset: str, line: str):
    path = tmp_path / "book.dd"
    path.write_text(BOOK.format(ruleset=ruleset, line=line), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("ruleset", "line", "message", "hint"),
    [
        ("d20", "> check DEX 0", "difficulty 0 is out of range", "from 5 to 35"),
        ("d20", "> action DEX 60 (maîtrisé)", "difficulty 60 is out of range", "from 5 to 35"),
        ("d20", "> check DEX 4 +2", "difficulty 4 is out of range", "from 5 to 35"),
        ("d20", "> check DEX 99999", "difficulty 99999 is out of range", "from 5 to 35"),
        ("reliques", "> test FOR+AGL -7", "difficulty -7 is out of range", "from -4 to 4"),
        ("reliques", "> testez FOR +5", "difficulty 5 is out of range", "from -4 to 4"),
        ("reliques", "> test your luck", "this ruleset has no `luck` test", "its tests"),
        ("d20", "> test your skill", "this ruleset has no `skill` test", "its tests"),
        ("df-classic", "> check DEX hard", "unknown difficulty `hard`", "no d20 difficulties"),
        ("d20", "> test FOR+AGL +1", "unknown characteristic `AGL`", ""),
    ],
)
def test_a_value_out_of_range_is_a_load_error_at_its_line(tmp_path, ruleset, line, message, hint):
    with pytest.raises(BookLoadError) as raised:
        load_book(_write(tmp_path, ruleset, line))
    errors = [e for e in raised.value.errors if message in str(e.message)]
    assert errors, [str(e.message) for e in raised.value.errors]
    assert (errors[0].span.line, errors[0].span.column) == (7, 3)
    assert hint in str(errors[0].hint)


@pytest.mark.parametrize(
    ("ruleset", "line"),
    [
        ("d20", "> check DEX 5 -99 (trained, advantage)"),
        ("d20", "> check DEX 35 +99 (disadvantage)"),
        ("d20", "> action DEX impossible"),
        ("reliques", "> test FOR+AGL -4 (risk)"),
        ("reliques", "> testez FOR+AGL +4"),
        ("df-classic", "> test your skill -99"),
        ("df-classic", "> tentez votre chance +99"),
    ],
)
def test_the_extreme_values_a_ruleset_allows_play_without_a_crash(tmp_path, ruleset, line):
    report = validate_path(_write(tmp_path, ruleset, line), runs=60, seed=3)
    assert [f.code for f in report.findings if f.severity == "error"] == []
    assert report.playthroughs is not None and report.playthroughs.victories == 60
