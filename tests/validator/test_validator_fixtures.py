"""One fixture book per check, containing exactly the defect it must find; a clean book
that produces nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.validator import CHECKS, validate_path

BOOKS = Path(__file__).resolve().parent / "books"

# fixture -> (codes it must produce, random games to play)
EXPECTED: dict[str, tuple[set[str], int]] = {
    "clean": (set(), 200),
    "E001-syntax-error": ({"E001"}, 0),
    "E002-book-structure-error": ({"E002"}, 0),
    "E003-bad-validator-setting": ({"E003"}, 0),
    "E004-ruleset-error": ({"E004"}, 0),
    "E010-missing-paragraph": ({"E010"}, 0),
    "E020-unknown-stat": ({"E020"}, 0),
    "E021-unknown-counter": ({"E021"}, 0),
    "E011-duplicate-paragraph": ({"E011"}, 0),
    "W012-numbering-gap": ({"W012"}, 0),
    "W013-unreachable-paragraph": ({"W013"}, 0),
    "E014-dead-end": ({"E014"}, 0),
    "E015-no-way-out": ({"E015"}, 0),
    "E016-no-victory": ({"E016"}, 0),
    "W017-hidden-without-clue": ({"W017"}, 0),
    "E023-item-never-given": ({"E023"}, 0),
    "E024-codeword-never-set": ({"E024"}, 0),
    "I025-item-never-used": ({"I025"}, 0),
    "I026-codeword-never-used": ({"I026"}, 0),
    "W027-world-always-visited": ({"W027"}, 0),
    "E028-requirement-unobtainable": ({"E028"}, 0),
    "W029-condition-never-met": ({"W029"}, 0),
    "W030-deadly-fight": ({"W030"}, 0),
    "W031-unwinnable-fight": ({"W031"}, 0),
    "W032-fight-odds-unavailable": ({"W032"}, 0),
    "I060-tag-never-acted-on": ({"I060"}, 0),
    "I100-repeated-test-odds": ({"I100"}, 0),
    "W101-repeated-test-stuck": ({"W101"}, 0),
    "E070-forced-loop": ({"E070"}, 100),
    "W071-forced-loop-on-state": ({"W071"}, 100),
    # estimated odds (no exact method): a fair fight and a deadly or unwinnable one
    "W030-together-fight": ({"W030"}, 0),
    # the best-Luck rows estimated beside exact no-Luck rows: I115 says why (no bare ≈)
    "W031-together-fight": ({"W031", "I115"}, 0),
    "W031-d20-fight": ({"W031", "I115"}, 0),  # the dragon's 10d10: estimated, saying why
    "W031-d20-estimated": ({"W031", "I115"}, 0),  # both fights past the d20 budget
    "W031-reliques-fight": ({"W031", "I115"}, 0),  # exact odds: too many states (I115)
    "estimate-ally-fight": (set(), 0),
    "I115-fight-at-once-estimated": ({"I115"}, 0),  # too many states for the exact odds
    "E041-softlock": ({"E041", "W081"}, 100),  # W081: the same choice, found statically
    "W043-game-too-long": ({"W043", "I042"}, 100),
    "silenced": ({"W013"}, 100),
}


def test_every_fixture_folder_is_listed():
    assert {path.name for path in BOOKS.iterdir() if path.is_dir()} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_finds_exactly_its_defect(name, books):
    codes, runs = EXPECTED[name]
    report = validate_path(name, runs=runs, seed=0)
    assert {item.code for item in report.findings} == codes
    for item in report.findings:
        assert item.code in CHECKS
        assert item.span is not None and item.span.line >= 1 and item.span.column >= 1


def test_clean_book_has_statistics(books):
    report = validate_path("clean", runs=200, seed=0)
    assert report.findings == []
    stats = report.playthroughs
    assert stats is not None and stats.runs == 200
    assert stats.victories + stats.deaths == 200
    assert 0.5 < stats.victory_rate < 1
    assert stats.never_reached == set()
    assert stats.deadliest()[0][0] in {4, 8}  # the goblin fight or the fall
    assert len(report.fights) == 1 and report.fights[0].win("median", "best") > 0.99


def test_silencing_by_code_and_by_paragraph(books):
    report = validate_path("silenced", runs=100, seed=0)
    assert [(item.code, item.paragraph) for item in report.findings] == [("W013", 10)]
    # W013@9; no I042 for 9 and 10: W013 already says no game can reach them (issue 12.11)
    assert report.silenced == 1


def test_fight_odds_cover_heroes_and_luck(books):
    report = validate_path("W030-deadly-fight", runs=0)
    (fight,) = report.fights
    weakest = fight.win("weakest", "none")
    median, median_luck = fight.win("median", "none"), fight.win("median", "best")
    strongest = fight.win("strongest", "best")
    assert 0 <= weakest <= median <= median_luck <= strongest <= 1
    assert median_luck < 0.05 < strongest


def test_softlock_carries_seed_and_answers(books):
    report = validate_path("E041-softlock", runs=100, seed=0)
    (item,) = [found for found in report.findings if found.code == "E041"]
    assert item.paragraph == 7
    assert "seed" in item.message and item.data["seed"] >= 0
    assert "dedale play" in item.hint
