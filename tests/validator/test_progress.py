"""Progress of long validations (issue 18.5): a transient Rich bar in the text format on a
terminal; nothing in json/github/sarif, nothing when stdout is not a terminal."""

from __future__ import annotations

import io
import json
from pathlib import Path

from dedale.validator import cli
from dedale.validator.progress import STAGES, book_progress, wants_progress

BOOK = Path(__file__).resolve().parents[2] / "books" / "first-steps"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_only_for_the_text_format_on_a_terminal():
    assert wants_progress("text", Terminal())
    assert not wants_progress("text", io.StringIO())
    for fmt in ("json", "github", "sarif"):
        assert not wants_progress(fmt, Terminal())
    with book_progress(["b"], "text", io.StringIO()) as progress:
        assert progress is None


def test_each_book_reports_every_stage_of_the_checks(monkeypatch):
    from dedale.validator import checker

    stages: list[str] = []
    checker.validate_path(BOOK, runs=1, progress=stages.append)
    assert len(stages) == STAGES and stages[0] == "loading"
    assert "fight odds" in stages and stages[-1] == "ways to win"


def test_the_text_report_on_a_terminal_draws_the_bar(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr("sys.stdout", screen)
    cli.main(["--runs", "0", str(BOOK)])
    shown = screen.getvalue()
    assert "checking" in shown and "Summary" in shown


def test_json_on_a_terminal_is_the_document_alone(monkeypatch):
    screen = Terminal()
    monkeypatch.setattr("sys.stdout", screen)
    cli.main(["--runs", "0", "--format", "json", str(BOOK)])
    assert json.loads(screen.getvalue())["books"]


def test_text_to_a_pipe_has_no_bar(monkeypatch):
    pipe = io.StringIO()
    monkeypatch.setattr("sys.stdout", pipe)
    cli.main(["--runs", "0", str(BOOK)])
    assert "checking" not in pipe.getvalue() and "\x1b[" not in pipe.getvalue()
