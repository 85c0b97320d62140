"""The validator's reliques fights are exact (dedale.validator.fights_reliques): the fixture
book's deadly fight gets W030 with an exact figure, the rows agree with a seeded
simulation of the real fight, and a fight too large for the DP stays estimated (I115)."""

from __future__ import annotations

import io
import math
from pathlib import Path

from dedale import ast
from dedale.language import load_book
from dedale.rules import RandomSource, create_character, drive
from dedale.rules.fight_reliques import reliques_fight
from dedale.validator import cli, validate_path
from dedale.validator.fights import hero_profiles

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
DEADLY = BOOKS / "W030-reliques-deadly-fight.dd"
FIGHTS = 3000


def test_the_deadly_reliques_fight_is_w030_with_an_exact_figure():
    report = validate_path(DEADLY, runs=0)
    assert [(f.code, f.span.line) for f in report.findings] == [("W030", 22)]
    assert [fight.method for fight in report.fights] == ["exact", "exact"]
    assert all(odds.samples is None for fight in report.fights for odds in fight.odds)
    text = report.findings[0].message.translate("en")
    assert "≈" not in text and "estimate" not in text
    ghost = report.fights[1]
    assert ghost.win("median", "none") < ghost.win("median", "best") < 0.05


def test_the_exact_row_agrees_with_a_seeded_simulation_of_the_real_fight():
    """The median hero as character creation makes him, with the start paragraph's kit
    (sword, leather armour), fights the ghost 3,000 times without spending Courage."""
    book = load_book(DEADLY)
    report = validate_path(DEADLY, runs=0)
    exact = report.fights[1].win("median", "none")
    profile = next(h for h in hero_profiles(book.ruleset) if h.level == "median")
    hero = create_character(book.ruleset, RandomSource(0), None, fixed=dict(profile.stats))
    hero.items.update({"épée": 1, "cuir": 1})
    fight = next(s for s in book.paragraphs[3].body if isinstance(s, ast.Fight))
    from dedale.game.rehearsal import FightRehearsal

    spec = FightRehearsal(book).spec(fight)
    rng = RandomSource(2026)

    class Never:
        def answer(self, prompt):
            return 0 if hasattr(prompt, "enemies") else getattr(prompt, "kind", "") == "dodge"

    won = 0
    for _ in range(FIGHTS):
        fighter = hero.copy()
        result = drive(reliques_fight(book.ruleset, fighter, rng, spec, False), Never())
        won += result.outcome == "won"
    se = math.sqrt(max(exact * (1 - exact), 1e-4) / FIGHTS)
    assert abs(won / FIGHTS - exact) <= 3 * se, (won / FIGHTS, exact, se)


def test_the_text_report_shows_exact_reliques_rows(monkeypatch, snapshot):
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.chdir(BOOKS)
    monkeypatch.setenv("COLUMNS", "100")
    cli.main(["--runs", "0", "--all-fights", "--lang", "en", DEADLY.name])
    text = out.getvalue()
    assert "≈" not in text
    assert text == snapshot


def test_a_reliques_fight_too_large_stays_estimated_and_says_why(books):
    report = validate_path("W031-reliques-fight", runs=0)
    fair, hard = report.fights
    assert fair.method == "exact" and hard.method == "estimate"
    assert hard.estimated_because is not None and "states" in str(hard.estimated_because)
    assert {f.code for f in report.findings} == {"W031", "I115"}


def test_every_fight_of_the_sample_reliques_book_is_exact():
    root = Path(__file__).resolve().parents[2] / "books" / "reliquaire"
    report = validate_path(root, runs=0)
    assert sorted(f.paragraph for f in report.fights) == [10, 11, 16, 25]
    assert all(f.method == "exact" and f.error is None for f in report.fights)
