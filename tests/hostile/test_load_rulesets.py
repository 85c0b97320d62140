"""Absurd ruleset values (issue 11.16), in an author's ruleset file or in book.yaml's
``rules:`` overrides: each is a RulesetError at the value's line, with the range as hint."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.errors import BookLoadError, RulesetError
from dedale.language import load_book
from dedale.rules import load_ruleset

BOOK = "§ 1\nThe start.\n> victory\n"

# (override in book.yaml under `rules:`, the word the message names)
ABSURD = [
    ("stats: {SKILL: {roll: -2d6}}", "below 0"),
    ("stats: {SKILL: {roll: 1d6-100}}", "below 0"),
    ("stats: {STAMINA: {roll: 100d100}}", "above"),
    ("tests: {luck: {cost: -5}}", "at least 0"),
    ("tests: {luck: {dice: 2d6-20}}", "below 1"),
    ("counters: {gold: {initial: -99999999999999999999}}", "too long"),
    ("counters: {gold: {initial: -5}}", "at least 0"),
    ("counters: {gold: {max: 99999999}}", "cannot be"),
    ("meals: {heal: 10000000000000000000000}", "too long"),
    ("meals: {heal: 1000000}", "cannot be"),
    ("fight: {damage: {to_hero: -2}}", "at least 0"),
    ("fight: {damage: {to_enemy: 123456}}", "cannot be"),
    ("fight: {dice: 0d6}", "cannot roll 0 dice"),
    ("fight: {luck: {wounding: {lucky: 99999, unlucky: 1}}}", "cannot be"),
]


def write(folder: Path, override: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    meta = f"title: T\nlanguage: en\nruleset: df-classic\nrules:\n  {override}\n"
    (folder / "book.yaml").write_text(meta, encoding="utf-8")
    (folder / "p.dd").write_text(BOOK, encoding="utf-8")
    return folder


@pytest.mark.parametrize("override, word", ABSURD)
def test_absurd_override_in_book_yaml(tmp_path, override, word):
    with pytest.raises(BookLoadError) as caught:
        load_book(write(tmp_path, override))
    (error,) = caught.value.errors
    assert word in error.message, error.message
    assert error.span.file.endswith("book.yaml") and error.span.line == 5
    assert error.hint


@pytest.mark.parametrize("override, word", ABSURD)
def test_absurd_value_in_an_authors_ruleset(tmp_path, override, word):
    (tmp_path / "mine.yaml").write_text(f"extends: df-classic\n{override}\n", encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset("mine.yaml", base_dir=tmp_path)
    error = caught.value
    assert word in error.message, error.message
    assert (error.span.file, error.span.line) == ("mine.yaml", 2) and error.hint


def test_reliques_action_band_with_odd_digits(tmp_path):
    (tmp_path / "r.yaml").write_text(
        'extends: reliques\nfight: {actions: {"²": 1}}\n', encoding="utf-8"
    )
    with pytest.raises(RulesetError) as caught:
        load_ruleset("r.yaml", base_dir=tmp_path)
    assert caught.value.span.line == 2


def test_sane_values_still_load(tmp_path):
    book = load_book(write(tmp_path, "meals: {heal: 6}"))
    assert book.ruleset.meals.heal == 6


def test_an_empty_class_is_a_class_with_no_changes_not_a_type_error(tmp_path):
    """Found by the fuzz campaign: `classes: {Officer: }` raised TypeError in check_keys."""
    from dedale.language import load_book

    path = tmp_path / "book.dd"
    path.write_text(
        "---\ntitle: T\nruleset: df48.5\nrules:\n  classes:\n    Officer:\n---\n§ 1\n> victory\n",
        encoding="utf-8",
    )
    book = load_book(path)
    assert "Officer" in book.ruleset.classes
