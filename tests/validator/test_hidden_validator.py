"""The validator and hidden numbers that belong to their puzzle (issue 13.1): each prompt's
answers are checked on their own, hidden paragraphs are reachable only through a reachable
prompt that lists them, clues may be arithmetic or a letter code, and random games answer
the prompts (so they reach the hidden paragraphs)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.validator import validate_path

EXTRA = Path(__file__).resolve().parents[1] / "books_extra"
FIXTURES = EXTRA / "validator"
HIDDEN_BOOK = EXTRA / "hidden"


def _codes(path: Path, runs: int = 0) -> list[tuple[str, int | None, int]]:
    found = validate_path(path, runs=runs, seed=0).findings
    return sorted((f.code, f.paragraph, f.span.line) for f in found)


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("W090-answer-not-hidden", [("W090", 1, 10)]),
        ("W091-answer-also-a-choice", [("W091", 1, 10)]),
        ("W092-hidden-never-listed", [("W013", 40, 23), ("W092", 40, 23)]),
        ("W013-prompt-unreachable", [("W013", 3, 16)]),
        ("W017-answer-without-clue", [("W017", 30, 17)]),
        ("hidden-clean", []),
    ],
)
def test_each_fixture_finds_its_defect(fixture, expected):
    assert _codes(FIXTURES / f"{fixture}.dd") == expected


def test_the_unreachable_prompt_takes_its_hidden_room_with_it():
    (found,) = validate_path(FIXTURES / "W013-prompt-unreachable.dd", runs=0).findings
    assert "30" in found.message  # the hidden paragraph only the prompt opens


def test_an_answer_that_names_no_paragraph_is_e010(tmp_path):
    text = (FIXTURES / "hidden-clean.dd").read_text("utf-8").replace("-> ? (30)", "-> ? (31)")
    book = tmp_path / "missing.dd"
    book.write_text(text, "utf-8")
    found = validate_path(book, runs=0).findings
    e010 = [f for f in found if f.code == "E010"]
    assert len(e010) == 1 and "31" in e010[0].message
    assert (e010[0].span.line, e010[0].span.column) == (11, 7)


@pytest.mark.parametrize(
    ("clue", "silenced"),
    [
        ("Its lid reads: 30.", True),  # the number written
        ("Its lid reads: 12 + 18.", True),  # arithmetic in figures
        ("Add twelve to the 18 carved on it.", True),  # in words and figures
        ("Ajoutez 12 aux 18 marques du couvercle.", True),  # in French
        ("Its lid reads: A=1, B=2... and the word MAKE.", True),  # 13+1+11+5 = 30
        ('Letters are numbers here, and the lid says "make".', True),  # quoted
        ("Its lid reads: A=1, B=2... and the word CAKE.", False),  # 3+1+11+5 = 20
        ("Its lid reads the word MAKE.", False),  # no letter code: a word is not a clue
        ("Its lid reads 12 and 18.", False),  # numbers but no arithmetic
    ],
)
def test_clues_in_figures_words_and_letter_codes(tmp_path, clue, silenced):
    text = (FIXTURES / "W017-answer-without-clue.dd").read_text("utf-8")
    book = tmp_path / "clue.dd"
    book.write_text(text.replace("Nothing is written on it.", clue), "utf-8")
    codes = {code for code, *_ in _codes(book)}
    assert ("W017" not in codes) is silenced


def test_the_hidden_book_is_clean_and_random_games_answer_its_prompts():
    report = validate_path(HIDDEN_BOOK, runs=300, seed=0)
    assert report.findings == []
    stats = report.playthroughs
    assert stats is not None and stats.never_reached == set()  # 40, 54, 56 included
    assert stats.victories and stats.deaths  # the dial's wrong number kills


def test_a_hidden_number_choice_behind_an_item_is_checked_like_a_choice(tmp_path):
    book = tmp_path / "gated.dd"
    book.write_text(
        "---\ntitle: t\nruleset: df-classic\nlanguage: en\nvalidator:\n  ignore: [W012]\n---\n"
        "§ 1\nThe lid reads 30. A key lies on the floor.\n> take Silver Key\n"
        "> drop Silver Key\n-> ? (30) (if Silver Key) Open the chest\n-> 2 Leave\n"
        "§ 2\n> victory\n§ 30\n> hidden paragraph\n> victory\n",
        "utf-8",
    )
    assert _codes(book) == [("W029", 1, 12)]  # the key is always dropped before
    never = tmp_path / "never.dd"
    never.write_text(book.read_text("utf-8").replace("> take Silver Key\n", ""), "utf-8")
    # E023: nothing gives the key; W087: the drop cannot drop anything either
    assert [code for code, *_ in _codes(never)] == ["E023", "W087"]
