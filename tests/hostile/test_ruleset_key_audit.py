"""Found by the ruleset key audit (issue 12.4): two keys the schema accepted and nothing read
(a top-level ``description``; ``critical_success``/``critical_failure`` words for a roll-under
test, which only succeeds or fails) are now errors at their place in book.yaml."""

from __future__ import annotations

import pytest
from dedale.errors import BookLoadError
from dedale.language import load_book


@pytest.mark.parametrize(
    ("rules", "column", "hint"),
    [
        ("{description: Mine}", 9, "a ruleset accepts: name, title, stats,"),
        ("{tests: {luck: {outcomes: {critical_success: Wow}}}}", 35, "did you mean `success`?"),
    ],
)
def test_an_override_nothing_reads_is_an_error(tmp_path, rules, column, hint):
    path = tmp_path / "book.dd"
    path.write_text(f"---\ntitle: t\nrules: {rules}\n---\n§ 1\n> victory\n", "utf-8")
    with pytest.raises(BookLoadError) as caught:
        load_book(path)
    (error,) = caught.value.errors
    assert error.message.startswith("unknown key")
    assert (error.span.line, error.span.column) == (3, column), error.span
    assert hint in (error.hint or "")


def test_a_bad_override_in_a_front_matter_points_at_its_own_line(tmp_path):
    """The ``---`` above a front matter counts: the error was one line too high."""
    path = tmp_path / "book.dd"
    path.write_text(
        "---\ntitle: t\nrules:\n  counters:\n    gold: {initial: x}\n---\n§ 1\n> victory\n", "utf-8"
    )
    with pytest.raises(BookLoadError) as caught:
        load_book(path)
    (error,) = caught.value.errors
    assert (error.span.line, error.span.column) == (5, 21)
