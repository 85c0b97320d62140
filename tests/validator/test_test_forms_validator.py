"""The validator on tests as real books write them (issue 13 §6): a declined branch is an
exit, a test repeated until success goes on only after its success, a modifier's item is
checked like any needed item, an optional test asks the reader (no forced loop), and the
test book of these forms validates with no finding."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import pytest
from dedale import events
from dedale.game import Game
from dedale.language import load_book
from dedale.rules.dice import parse_dice
from dedale.validator import validate_path
from dedale.validator.graph import build_graph
from dedale.validator.repeated_tests import death_chance

TESTS_BOOK = Path(__file__).resolve().parents[1] / "books_extra" / "tests"
HEADER = "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n"


def _write(tmp_path, text: str) -> Path:
    path = tmp_path / "book.dd"
    path.write_text(HEADER + text, "utf-8")
    return path


def _codes(tmp_path, text: str, runs: int = 0) -> list[tuple[str, int | None]]:
    report = validate_path(_write(tmp_path, text), runs=runs, seed=0)
    return sorted((f.code, f.span.line if f.span else None) for f in report.findings)


@pytest.mark.parametrize("book", [TESTS_BOOK, TESTS_BOOK.parent / "tests_fr"])
def test_the_test_books_are_clean(book):
    report = validate_path(book, runs=300, seed=0)
    assert [f.code for f in report.findings] == ["I100"]  # the odds of the gate (below)


def test_the_declined_branch_is_an_exit_of_the_graph():
    graph = build_graph(load_book(TESTS_BOOK))
    kinds = {edge.target for edge in graph.nodes[3].edges}
    assert kinds == {4, 5}  # declined -> 4, success and failure -> 5


@pytest.mark.parametrize(
    ("branches", "dead_end"),
    [
        ("> declined -> 3\n> success -> 3\n> failure -> 3\n", False),
        ("> success -> 3\n> failure -> 3\n", True),  # declining reads on: nothing after it
    ],
)
def test_an_optional_test_without_a_declined_branch_reads_on(tmp_path, branches, dead_end):
    text = "§ 1\n> test your skill (optional)\n" + branches + "§ 3\n> victory\n"
    assert (("E014", 6) in _codes(tmp_path, text)) is dead_end


def test_a_repeated_test_goes_on_only_after_its_success(tmp_path):
    looped = "§ 1\n> test your skill (until success)\n> failure: lose 1 STAMINA\n"
    assert ("E014", 6) not in _codes(tmp_path, looped + "> success -> 3\n§ 3\n> victory\n")
    # no success branch: after the success the paragraph ends with nothing to choose
    assert ("E014", 6) in _codes(tmp_path, looped + "§ 3\n> victory\n")


def test_a_modifier_item_never_given_is_reported_at_the_modifier(tmp_path):
    text = "§ 1\n> test your skill -1 if Silver Dagger\n> success -> 2\n> failure -> 2\n"
    text += "§ 2\n> victory\n"
    report = validate_path(_write(tmp_path, text), runs=0, seed=0)
    (found,) = [f for f in report.findings if f.code == "E023"]
    assert (found.span.line, found.span.column) == (7, 25)
    assert "Silver Dagger" in str(found.message)
    given = text.replace("§ 1\n", "§ 1\n> take Silver Dagger\n")
    assert "E023" not in {code for code, _ in _codes(tmp_path, given)}


def test_a_modifier_codeword_never_set_is_reported(tmp_path):
    text = "§ 1\n> test your luck +1 if codeword Blessed\n> lucky -> 2\n> unlucky -> 2\n"
    text += "§ 2\n> victory\n"
    assert ("E024", 7) in _codes(tmp_path, text)


def test_an_optional_test_in_a_loop_asks_the_reader(tmp_path):
    # 1 -> 2 -> 1 with nothing else to decide would be a forced loop (E070); the optional
    # test asks a question on the way
    text = "§ 1\n> go to 2\n§ 2\n> test your skill (optional)\n"
    text += "> success -> 1\n> failure -> 1\n> go to 1\n"
    assert "E070" not in {code for code, _ in _codes(tmp_path, text)}
    assert "E070" in {code for code, _ in _codes(tmp_path, text.replace(" (optional)", ""))}


def test_a_comparison_needs_its_three_outcomes(tmp_path):
    text = "§ 1\n> roll 2d6 against 2d6\n> higher -> 2\n> lower -> 2\n"
    assert ("E014", 6) in _codes(tmp_path, text + "§ 2\n> victory\n")
    assert ("E014", 6) not in _codes(tmp_path, text + "> equal -> 1\n§ 2\n> victory\n")


def test_the_test_book_reports_the_gate_odds():
    report = validate_path(TESTS_BOOK, runs=0, seed=0)
    (odds,) = report.findings
    assert (odds.code, odds.paragraph) == ("I100", 5)
    # weakest hero: SKILL 7 fails 2d6 15 times in 36; STAMINA 14, 1 a failure
    assert odds.data["death"]["weakest"] == pytest.approx(float(Fraction(15, 36) ** 14))


LUCK_REPEATED = "§ 1\n> test your luck (until success)\n> unlucky: lose 2 STAMINA\n"
LUCK_REPEATED += "> lucky -> 2\n§ 2\n> victory\n"


def test_exact_odds_of_a_repeated_luck_test_match_the_real_game(tmp_path):
    """LUCK 7 (one less after each test), STAMINA 6 (2 a failure): the hero dies on the
    third failure. Exact: 15/36 · 21/36 · 26/36; a seeded simulation of the real game
    agrees within 3 standard errors."""
    exact = death_chance(parse_dice("2d6").distribution(), 7, 6, 2, 1, False)
    assert exact == Fraction(15, 36) * Fraction(21, 36) * Fraction(26, 36)
    book = load_book(_write(tmp_path, LUCK_REPEATED))
    games = 4000
    deaths = 0
    for seed in range(games):
        game = Game.new(book, seed, hero=(7, 6, 7), name="Ari", quiet=True, free_stats=True)
        while (item := game.next()) is not None:
            assert not isinstance(item, events.Prompt)
        deaths += game.state.outcome == "death"
    p = float(exact)
    assert abs(deaths / games - p) <= 3 * math.sqrt(p * (1 - p) / games)


def test_a_repeated_test_in_a_paragraph_loop_is_not_a_forced_loop(tmp_path):
    text = "§ 1\n> test your skill\n> failure: lose 1 STAMINA\n> failure -> 1\n> success -> 2\n"
    text += "§ 2\n> victory\n"
    assert _codes(tmp_path, text, runs=50) == []


@pytest.mark.parametrize(
    ("roll", "targets"),
    [
        ("> roll 1d6", [41, 42, 43, 44, 45, 46]),
        ("> roll 1d6+1 against 1d6 +5", [42, 43, 44, 45, 46, 47]),  # its dice, not +5
        ("> test your luck", list(range(42, 48))),  # 2d6: 42-52, of which 42-47 exist
    ],
)
def test_a_destination_computed_from_roll_leads_to_the_rolls_totals(tmp_path, roll, targets):
    text = f"§ 1\n{roll}\n> go to [ROLL + 40]\n§ 2\n> victory\n"
    text += "".join(f"§ {n}\n> victory\n" for n in range(41, 48))
    report = validate_path(_write(tmp_path, text), runs=0, seed=0)
    (listed,) = [f for f in report.findings if f.code == "I019"]
    assert listed.data["targets"] == targets


def test_the_odds_of_a_huge_stat_are_bounded_and_quick():
    dice = parse_dice("2d6").distribution()
    assert death_chance(dice, 7, 9_999, 1, 0, False) == 0  # the limit of throws comes first
    assert death_chance(dice, 5, 300, 2, 0, False) == pytest.approx((26 / 36) ** 150, rel=1e-9)
