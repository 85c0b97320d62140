"""Reliques fights the validator now computes exactly (dedale.validator.fights_reliques):
an enemy whose stat is dice (the mix of its rolled line-ups, weighted exactly), a fight
that stops when the hero's health falls to 6 or less, and one won after 2 assaults won.
Each exact row agrees with 3,000 seeded plays of the real fight code (the interpreter's
own setup: the dice rolled when the fight starts, the book's threshold and turns won
checked by its hooks after each turn); a line-up with too many rolls stays estimated, I115
says why in the reader's language."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from dedale import ast
from dedale.events import TargetPrompt
from dedale.game.rehearsal import FightRehearsal
from dedale.language import load_book
from dedale.rules import RandomSource, create_character
from dedale.validator import validate_path
from dedale.validator.fights import hero_profiles

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
BOOK = BOOKS / "reliques-dice-and-threshold.dd"
FIGHTS = 3000


class _NoCourage:
    """Dodge (the profiles' dodge and parry are the same duo), never spend Courage."""

    def answer(self, prompt):
        if isinstance(prompt, TargetPrompt):
            return 0
        return getattr(prompt, "kind", None) == "dodge"


@pytest.fixture(scope="module")
def report():
    return validate_path(BOOK, runs=0)


def test_the_dice_and_threshold_fights_are_exact_and_the_large_mix_says_why(report):
    methods = {fight.paragraph: fight.method for fight in report.fights}
    assert methods == {2: "exact", 3: "exact", 4: "estimate", 6: "exact"}
    exact = [f for f in report.fights if f.paragraph != 4]
    assert all(odds.samples is None for f in exact for odds in f.odds)
    assert [(f.code, f.paragraph) for f in report.findings] == [("I115", 4)]
    assert "36" in report.findings[0].message.translate("fr")
    assert "tirages à combiner" in report.findings[0].message.translate("fr")


CASES = [(2, "median", 11), (3, "weakest", 12), (3, "median", 13), (6, "median", 14)]


@pytest.mark.parametrize(("paragraph", "level", "seed"), CASES)
def test_the_exact_row_agrees_with_seeded_plays_of_the_real_fight(report, paragraph, level, seed):
    """The hero as character creation makes him, with the start paragraph's kit."""
    book = load_book(BOOK)
    exact = next(f for f in report.fights if f.paragraph == paragraph).win(level, "none")
    profile = next(h for h in hero_profiles(book.ruleset) if h.level == level)
    hero = create_character(book.ruleset, RandomSource(0), None, fixed=dict(profile.stats))
    hero.items.update({"épée": 1, "cuir": 1})
    fight = next(s for s in book.paragraphs[paragraph].body if isinstance(s, ast.Fight))
    rehearsal = FightRehearsal(book)
    spec = rehearsal.spec(fight)
    rng = RandomSource(seed)
    alive = 0
    for _ in range(FIGHTS):
        fighter = hero.copy()
        result = rehearsal.play(fight, spec, fighter, rng, _NoCourage())
        alive += result.outcome in ("won", "limit") and fighter.stats["HEALTH"] > 0
    se = math.sqrt(max(exact * (1 - exact), 1e-4) / FIGHTS)
    assert abs(alive / FIGHTS - exact) <= 3 * se, (alive / FIGHTS, exact, se)


def test_a_mix_past_its_time_budget_is_estimated_and_says_so(monkeypatch):
    """The line-ups share the fight's budget (2 CPU s per hero; here 1 ms): past it the
    fight is estimated, I115 saying how many line-ups were mixed."""
    monkeypatch.setattr("dedale.validator.fights_reliques.SECONDS", 0.001)
    report = validate_path(BOOK, runs=0)
    troll = next(f for f in report.fights if f.paragraph == 2)
    assert troll.method == "estimate"
    assert "rolled line-ups" in str(troll.estimated_because)
    found = [f for f in report.findings if f.code == "I115" and f.paragraph == 2]
    assert "tirages" in found[0].message.translate("fr")
