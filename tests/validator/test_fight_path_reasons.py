"""Why a step of the path of fights is ``≈`` (issue 14.4): one reason a paragraph, the first
that made it ``≈``, in the reader's language — an error caught on the way (here a fight
setting's time budget, forced) keeps its message, which the French report translates."""

from __future__ import annotations

from pathlib import Path

from dedale.i18n import tr
from dedale.validator import validate_path
from dedale.validator.fight_path_reasons import error_reason, first_reasons
from dedale.validator.report.fight_path_report import fight_path_text

BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
BOOK = BOOK / "path-potion-in-fight-at-once.dd"


def test_one_reason_a_paragraph_the_first():
    first, second, third = tr("a fight with no odds"), tr("an escape"), tr("a table")
    assert first_reasons([(2, first), (2, second), (5, third), (2, third)]) == (
        (2, first),
        (5, third),
    )


def test_an_error_keeps_its_message_for_the_reader():
    message = tr("more than {seconds} seconds", seconds="8")
    assert error_reason(ValueError(message)) is message
    assert error_reason(KeyError("ENDURANCE")) == "ENDURANCE"
    assert error_reason(ArithmeticError()) == "ArithmeticError"


def test_a_step_past_its_budget_says_why_in_french(monkeypatch):
    from dedale.validator import fight_path_group

    monkeypatch.setattr(fight_path_group, "SETTING_SECONDS", -1.0)
    path = validate_path(BOOK, runs=0).fight_path
    median = path.of("median")
    assert not median.exact
    assert [number for number, _ in median.reasons] == [2]  # one line for the goblins
    shown = fight_path_text(path, "fr").plain
    line = next(line for line in shown.splitlines() if line.strip().startswith("≈ §\u00a02"))
    assert "plus de -1 secondes" in line and "seconds" not in line, line
