"""The path-aware checks of issue 14 (values out of range, resources along the paths,
soft-locks, books no game wins): one fixture book per check in tests/books_extra/validator,
each with exactly the defect it must find, at its line."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.validator import validate_path

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"

# fixture -> (the findings it must give: code and line, random games to play)
EXPECTED: dict[str, tuple[list[tuple[str, int]], int]] = {
    "E002-d20-difficulty-out-of-range": ([("E002", 8)], 0),
    "W080-unaffordable-cost": ([("W080", 13)], 100),
    # a shop's purchase and a bet's stake that no path can pay
    "W080-shop-unaffordable": ([("W080", 8), ("W080", 13)], 100),
    "W081-stat-condition-never-met": ([("W081", 8)], 100),
    "W082-gain-does-nothing": ([("W082", 8)], 100),
    "W083-no-meal-left": ([("W083", 13)], 100),
    "W084-loss-kills-every-hero": ([("W084", 8)], 0),
    "W085-never-won": ([("W085", 6), ("W031", 13), ("W080", 19)], 0),
    "W085-no-game-wins": ([("W085", 6), ("I042", 22)], 100),
    "W086-lost-before-needed": ([("W086", 13)], 100),
    "W086-dropped-for-the-limit": ([("W086", 15)], 0),
    "W087-lost-never-held": ([("I025", 8), ("W087", 13)], 100),  # I025: the same typo
    # a sale and a drop away from the start, on paths that hold no item at all
    "W087-sold-never-held": ([("W087", 12), ("W087", 17)], 100),
    "W088-class-never-wins": ([("W088", 9), ("W088", 9)], 100),  # the two classes without rope
    "W088-class-choice": ([("W088", 8), ("W088", 8)], 100),  # `(si classe Scientifique)`
    "class-every-one-wins": ([], 200),
    "clean-resources": ([], 200),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_finds_exactly_its_defect_at_its_line(name):
    expected, runs = EXPECTED[name]
    report = validate_path(BOOKS / f"{name}.dd", runs=runs, seed=0)
    assert [(item.code, item.span.line) for item in report.findings] == expected


HEAD = "---\ntitle: T\nlanguage: {lang}\nruleset: {ruleset}\n---\n"


def _codes(tmp_path, body: str, ruleset: str = "df-classic", lang: str = "en") -> list[str]:
    path = tmp_path / "book.dd"
    path.write_text(HEAD.format(ruleset=ruleset, lang=lang) + body, encoding="utf-8")
    report = validate_path(path, runs=0)
    return sorted(item.code for item in report.findings)


@pytest.mark.parametrize(
    "body",
    [
        # a loop that earns gold: the price is reached after a few rounds (widened, no W080)
        "§ 1\n> gain 3 gold\n-> 1 Work again\n-> 2 (pay 50 gold) Buy the boat\n\n§ 2\n> victory\n",
        # a loop that wounds: STAMINA can fall to 2 or less
        "§ 1\n> lose 1 STAMINA\n-> 1 Again\n-> 2 (if STAMINA <= 2) Rest\n-> 2 Go\n\n"
        "§ 2\n> victory\n",
        # a Luck test costs a point: the gain is not wasted
        "§ 1\n> test your luck\n> lucky -> 2\n> unlucky -> 2\n\n§ 2\n> gain 1 LUCK\n-> 3 On\n\n"
        "§ 3\n> victory\n",
        # a fight costs STAMINA: the gain heals
        "§ 1\n> fight GOBLIN SKILL 5 STAMINA 5\n> win -> 2\n\n§ 2\n> gain 4 STAMINA\n-> 3 On\n\n"
        "§ 3\n> victory\n",
        # an ongoing effect lowers SKILL on every paragraph: the gain is not wasted
        "§ 1\n> status Cursed: lose 1 SKILL each paragraph\n-> 2 On\n\n"
        "§ 2\n> gain 1 SKILL\n-> 3 On\n\n§ 3\n> victory\n",
        # set to a constant, then paid
        "§ 1\n> set gold to 30\n-> 2 (pay 20 gold) Pay\n\n§ 2\n> victory\n",
        # meals eaten where allowed, then a forced meal: some path may have one left
        "§ 1\n> meals allowed\n-> 2 On\n\n§ 2\n> eat a meal or lose 2 STAMINA\n-> 3 On\n\n"
        "§ 3\n> victory\n",
        # a loss in a failed test's branch: the other branch goes on
        "§ 1\n> test your skill\n> failure: lose 40 STAMINA\n> failure -> 2\n> success -> 2\n\n"
        "§ 2\n> victory\n",
        # French keywords: a payable price
        "§ 1\n> gagnez 5 or\n-> 2 (payez 5 or) Payer\n\n§ 2\n> victoire\n",
        # a shop that also buys: selling pays for the purchase
        "§ 1\n> take Gem\n-> 2 On\n\n§ 2\n> sell Gem for 10 gold\n"
        "> buy Sword for 7 gold (weapon, SKILL +1)\n-> 3 On\n\n§ 3\n> victory\n",
        # gold given, then a purchase and a bet: both payable; the bet may double the gold
        "§ 1\n> gain 5 gold\n> buy Sword for 5 gold (weapon, SKILL +1)\n-> 2 On\n\n"
        "§ 2\n> bet up to 5 gold, win on 2d6 8-12\n-> 3 (pay 10 gold) Buy passage\n-> 3 Swim\n\n"
        "§ 3\n> victory\n",
    ],
)
def test_no_false_alarm_where_some_path_can(tmp_path, body):
    assert _codes(tmp_path, body) == []


@pytest.mark.parametrize(
    ("ruleset", "body"),
    [
        # reliques: a test may spend the Courage point (a heroism point rerolls a die)
        (
            "reliques",
            "§ 1\n> test FOR+AGL +1\n> success -> 2\n> failure -> 2\n\n"
            "§ 2\n-> 3 (if courage <= 0) Flee\n-> 3 Stay\n\n§ 3\n> victory\n",
        ),
        # reliques: a loss the hero survives may be cancelled by Courage: not a sure death
        (
            "reliques",
            "§ 1\n> lose 4 HEALTH\n-> 2 On\n\n§ 2\n> lose 4 HEALTH\n-> 3 On\n\n§ 3\n> victory\n",
        ),
        # d20: a trained check costs nothing; a class's counters start where the class says
        ("d20", "§ 1\n> check DEX hard\n> success -> 2\n> failure -> 2\n\n§ 2\n> victory\n"),
    ],
)
def test_no_false_alarm_in_other_rulesets(tmp_path, ruleset, body):
    assert _codes(tmp_path, body, ruleset=ruleset) == []


def test_a_french_book_gets_its_finding_in_french(tmp_path, capsys):
    from dedale.validator.cli import main

    path = tmp_path / "book.dd"
    body = "§ 1\n> gagnez 3 or\n-> 2 (payez 20 or) Payer\n-> 2 Nager\n\n§ 2\n> victoire\n"
    path.write_text(HEAD.format(ruleset="df-classic", lang="fr") + body, encoding="utf-8")
    main([str(path), "--runs", "0"])
    out = capsys.readouterr().out
    assert "book.dd:8:7: alerte W080 aucun chemin ne peut payer 20 or ici\u00a0: au plus 3" in out


def test_the_bounds_analysis_is_bounded_on_a_long_book_with_loops(tmp_path):
    """3,000 paragraphs, each gaining gold and looping back: the analysis ends (widening)
    and finds nothing."""
    size = 3000
    body = "".join(
        f"§ {n}\n> gain 1 gold\n> lose 1 LUCK\n-> {n + 1} On\n-> {max(1, n - 5)} Back\n\n"
        for n in range(1, size)
    )
    body += f"§ {size}\n-> 1 (pay 9999 gold) Buy the crown\n> victory\n"
    from dedale.language import load_book
    from dedale.validator.graph import build_graph, walk
    from dedale.validator.intervals import INF, analyse

    path = tmp_path / "book.dd"
    path.write_text(HEAD.format(ruleset="df-classic", lang="en") + body, encoding="utf-8")
    book = load_book(path)
    graph = build_graph(book)
    analysis = analyse(graph, book, walk, (), 30.0)
    assert analysis is not None and analysis.complete
    assert analysis.entry[size]["gold"].hi == INF  # widened: the loop earns without limit
    assert analysis.victories == {size}


def test_the_text_report_of_the_path_checks(monkeypatch, capsys, snapshot):
    """What an author sees: `dedale validate --runs 0` on the fixtures, one after the other
    (the messages with their bounds and paths, the hints), reviewed as a snapshot."""
    from dedale.validator.cli import main

    monkeypatch.chdir(BOOKS)
    monkeypatch.setenv("COLUMNS", "100")
    names = [f"{name}.dd" for name in sorted(EXPECTED) if EXPECTED[name][1] == 0 or "W08" in name]
    main([*names, "--runs", "0", "--format", "text"])
    out = capsys.readouterr().out
    shown = [line for line in out.splitlines() if not line.startswith(("┏", "┃", "┡", "│", "└"))]
    assert "\n".join(shown) == snapshot


def test_a_codeword_cleared_on_one_path_before_it_is_needed_is_w086(tmp_path):
    body = (
        "§ 1\n> set codeword OWL\n-> 2 Listen to the hermit\n-> 3 Walk on\n\n"
        "§ 2\nThe hermit's tale makes you forget the watchword.\n> clear codeword OWL\n"
        "-> 3 Walk on\n\n"
        "§ 3\n-> 4 (if codeword OWL) Speak the watchword\n-> 5 Force the door\n\n"
        "§ 4\n> victory\n\n§ 5\n> death\n"
    )
    path = tmp_path / "book.dd"
    path.write_text(HEAD.format(ruleset="df-classic", lang="en") + body, encoding="utf-8")
    (item,) = validate_path(path, runs=0).findings
    assert (item.code, item.span.line, item.paragraph) == ("W086", 13, 2)
    assert "codeword 'OWL'" in str(item.message) and "(e.g. 1 → 2)" in str(item.message)


@pytest.mark.parametrize(
    "body",
    [
        # given up, then given back before it is needed
        "§ 1\n> take Lantern\n-> 2 (give Lantern) Trade it\n-> 2 Keep it\n\n"
        "§ 2\n> take Lantern\n-> 3 (if Lantern) Go down\n\n§ 3\n> victory\n",
        # given up, but another way wins without it
        "§ 1\n> take Lantern\n-> 2 (give Lantern) Trade it\n-> 2 Keep it\n\n"
        "§ 2\n-> 3 (if Lantern) Go down\n-> 3 Feel your way down\n\n§ 3\n> victory\n",
        # dropped where it is no longer needed
        "§ 1\n> take Lantern\n-> 2 (if Lantern) Go down\n\n§ 2\n> drop Lantern\n-> 3 On\n\n"
        "§ 3\n> victory\n",
    ],
)
def test_no_w086_when_the_loss_does_not_lock(tmp_path, body):
    assert _codes(tmp_path, body) == []


def test_a_bounds_analysis_cut_by_its_budget_says_so(tmp_path, monkeypatch):
    from dedale.validator import intervals

    monkeypatch.setattr(intervals, "MAX_STEPS_PER_PARAGRAPH", 0)
    body = "§ 1\n> gain 3 gold\n-> 2 (pay 20 gold) Pay\n-> 2 Swim\n\n§ 2\n> victory\n"
    path = tmp_path / "book.dd"
    path.write_text(HEAD.format(ruleset="df-classic", lang="en") + body, encoding="utf-8")
    (item,) = validate_path(path, runs=0).findings
    assert item.code == "I050"
    assert str(item.message).endswith("paragraph visits: W080-W084 skipped")
    monkeypatch.setattr(intervals, "MAX_STEPS_PER_PARAGRAPH", 200)
    monkeypatch.setattr(intervals, "CLOCK_EVERY", 1)
    monkeypatch.setattr(intervals.Deadline, "passed", lambda self: True)
    (item,) = validate_path(path, runs=0).findings
    assert item.code == "I051"
    assert str(item.message).startswith("bounds of stats and counters (W080-W084) stopped")
