"""Exact d20 fight odds in the validator (validator/fights_d20): the rows of a d20 book are
exact, equal the rules core's figures for the estimate's own heroes, agree with the seeded
estimate the validator gave before, and what stays estimated says why (I115)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.fight_d20 import fighters
from dedale.rules.odds_d20 import d20_odds
from dedale.validator import validate_path
from dedale.validator.fights import hero_profiles, start_kit
from dedale.validator.graph import build_graph, walk
from dedale.validator.simulate import FightSimulator

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
BOOK = BOOKS / "d20-fights-exact.dd"
ESTIMATES = Path(__file__).resolve().parent / "books" / "W031-d20-fight"


def _fights(book):
    from dedale import ast

    graph = build_graph(book)
    return graph, [
        (number, s)
        for number in sorted(graph.nodes)
        for s in walk(graph.nodes[number].paragraph.body)
        if isinstance(s, ast.Fight)
    ]


def test_a_d20_book_gets_exact_rows_and_no_finding():
    report = validate_path(BOOK, runs=0)
    assert report.findings == []
    assert [fight.method for fight in report.fights] == ["exact"] * 3
    assert all(o.samples is None and o.margin is None for f in report.fights for o in f.odds)


def test_the_rows_are_the_rules_core_figures_for_the_estimates_heroes():
    """Recomputed here with d20_odds for the heroes the estimate would play (the start
    paragraph's sword and leather armour on), each fight as the interpreter sets it up."""
    book = load_book(BOOK)
    graph, fights = _fights(book)
    simulator = FightSimulator(book, hero_profiles(book.ruleset), kit=start_kit(graph))
    report = validate_path(BOOK, runs=0)
    for (number, fight), shown in zip(fights, report.fights, strict=True):
        assert shown.paragraph == number
        spec = simulator.rehearsal.spec(fight)
        for hero, character in simulator.heroes:
            fighter, _ = fighters(book.ruleset, character, spec)
            assert (fighter.damage.text, fighter.reduction) == ("1d8", 2)  # sword, leather
            expected = d20_odds(book.ruleset, character, spec).alive_probability
            assert shown.win(hero.level, "none") == pytest.approx(expected, abs=1e-12)


def test_exact_rows_agree_with_the_seeded_estimate_they_replace():
    """The duel within 3 standard errors of the estimate; the rats (best target) and the
    knight (escape when better) at least the estimate's fixed decisions, less 3 SE."""
    book = load_book(BOOK)
    graph, fights = _fights(book)
    simulator = FightSimulator(book, hero_profiles(book.ruleset), seed=3, kit=start_kit(graph))
    report = validate_path(BOOK, runs=0)
    for (number, fight), shown in zip(fights, report.fights, strict=True):
        for row in simulator.odds(number, fight):
            exact = shown.win(row.hero.level, row.luck)
            se = (max(exact * (1 - exact), 1e-12) / row.samples) ** 0.5
            if number == 2:
                assert abs(exact - row.win) <= 3 * se + 1e-9, (number, row, exact)
            else:
                assert exact >= row.win - 3 * se - 1e-9, (number, row, exact)


def test_what_stays_estimated_says_why():
    report = validate_path(ESTIMATES, runs=0)
    bandit, dragon = report.fights
    assert bandit.method == "exact"
    assert dragon.method == "estimate" and "dice outcomes" in str(dragon.estimated_because)
    codes = sorted(f.code for f in report.findings)
    assert codes == ["I115", "W031"]


def test_the_json_report_says_exact(capsys):
    from dedale.validator.cli import main

    main([str(BOOK), "--runs", "0", "--format", "json"])
    fights = json.loads(capsys.readouterr().out)["books"][0]["fights"]
    assert [f["method"] for f in fights] == ["exact"] * 3


def test_the_text_report_of_a_d20_book(monkeypatch, capsys, snapshot):
    from dedale.validator.cli import main

    monkeypatch.chdir(BOOKS)
    monkeypatch.setenv("COLUMNS", "100")
    main([BOOK.name, "--runs", "0", "--format", "text", "--strict"])
    out = capsys.readouterr().out
    assert "≈" not in out.split("Path of fights")[0]  # the fight table (the path: W120's)
    assert out == snapshot


THRESHOLD_BOOK = """---
title: The ogre's bridge
language: en
ruleset: d20
---
§ 1
An ogre guards the bridge. If it hurts you badly, you can still jump into the river.
> take sword
> fight
> enemy OGRE AC 14 attack +5 damage 1d8 HP 25
> when your HP falls to 5 or less -> 3
> win -> 2

§ 2
The bridge is yours.
> victory

§ 3
The current carries you to the far bank, bruised but alive.
> victory
"""


def test_when_your_hp_falls_to_n_is_exact_and_agrees_with_the_interpreters_hooks(tmp_path):
    """The threshold is run by the interpreter's hooks after each assault; the estimate
    plays them (FightRehearsal.play), the exact odds follow them: within 3 SE."""
    path = tmp_path / "ogre.dd"
    path.write_text(THRESHOLD_BOOK, encoding="utf-8")
    report = validate_path(path, runs=0)
    (shown,) = report.fights
    assert shown.method == "exact" and report.findings == []
    book = load_book(path)
    graph, ((number, fight),) = _fights(book)
    simulator = FightSimulator(book, hero_profiles(book.ruleset), seed=5, kit=start_kit(graph))
    assert simulator.rehearsal.by_assault(fight)
    for row in simulator.odds(number, fight):
        exact = shown.win(row.hero.level, row.luck)
        se = (max(exact * (1 - exact), 1e-12) / row.samples) ** 0.5
        assert abs(exact - row.win) <= 3 * se + 1e-9, (row, exact)
    _, character = simulator.heroes[1]
    odds = d20_odds(book.ruleset, character, simulator.rehearsal.spec(fight), threshold=5)
    assert odds.threshold_probability > 0.5 and odds.win_probability > 0.01
    assert all(hp <= 5 for (way, hp) in odds.ends if way == "threshold")


def test_a_hostile_d20_book_is_bounded_in_states_and_time(tmp_path):
    """An enemy of 9,000 HP and two of 300 at once: past the budgets, estimated (or said
    impossible to simulate), never a long computation."""
    import time

    path = tmp_path / "big.dd"
    path.write_text(
        "---\ntitle: Big\nlanguage: en\nruleset: d20\n---\n§ 1\n> fight\n"
        "> enemy GIANT AC 12 attack +2 damage 1d6 HP 9000\n> win -> 2\n\n§ 2\n"
        "> fight all at once\n> enemy A AC 12 attack +2 damage 1d6 HP 300\n"
        "> enemy B AC 12 attack +2 damage 1d6 HP 300\n> win -> 3\n\n§ 3\n> victory\n",
        encoding="utf-8",
    )
    started = time.process_time()
    report = validate_path(path, runs=0)
    assert time.process_time() - started < 8
    giant, pair = report.fights
    assert giant.method is None and giant.error  # too large to compute or to simulate: W032
    assert pair.method == "estimate" and pair.estimated_because
    assert {f.code for f in report.findings} >= {"W032", "I115"}


ACTING = BOOKS / "d20-book-acts-exact"


def test_fights_the_book_acts_in_are_exact_and_say_nothing():
    """Events on a counter and an exit, damage rules and a shield's wound roll with "after 3
    assaults won", an assault table, "first assault won": exact rows, no I115."""
    report = validate_path(ACTING, runs=0)
    assert report.findings == []
    assert [fight.method for fight in report.fights] == ["exact"] * 4
    assert all(fight.estimated_because is None for fight in report.fights)


def test_acting_rows_agree_with_the_seeded_simulation_of_the_real_fight():
    """The estimate the rows replace plays the interpreter's hooks (FightRehearsal.play) for
    the same heroes: every row within 3 SE of it."""
    book = load_book(ACTING)
    graph, fights = _fights(book)
    simulator = FightSimulator(book, hero_profiles(book.ruleset), seed=9, kit=start_kit(graph))
    report = validate_path(ACTING, runs=0)
    for (number, fight), shown in zip(fights, report.fights, strict=True):
        assert simulator.rehearsal.by_assault(fight)
        for row in simulator.odds(number, fight):
            exact = shown.win(row.hero.level, row.luck)
            se = (max(exact * (1 - exact), 1e-12) / row.samples) ** 0.5
            assert abs(exact - row.win) <= 3 * se + 1e-9, (number, row, exact)


def test_a_d20_fight_with_an_ally_stays_estimated_and_says_why(tmp_path):
    path = tmp_path / "ally.dd"
    path.write_text(
        "---\ntitle: Ally\nlanguage: en\nruleset: d20\n---\n§ 1\n> take sword\n> fight\n"
        "> enemy OGRE AC 12 attack +3 damage 1d6 HP 12\n> ally BRAN attack +2 HP 10\n"
        "> win -> 2\n\n§ 2\n> victory\n",
        encoding="utf-8",
    )
    report = validate_path(path, runs=0)
    (fight,) = report.fights
    assert fight.method == "estimate" and "allies" in str(fight.estimated_because)
    assert [f.code for f in report.findings] == ["I115"]


def test_a_rule_on_a_book_flag_is_estimated_and_says_why(tmp_path):
    """A flag (book.yaml ``state:``) is not followed inside a fight: I115, never a crash."""
    (tmp_path / "book.yaml").write_text(
        "title: F\nlanguage: en\nruleset: d20\nstate:\n  flags: [calf following]\n",
        encoding="utf-8",
    )
    (tmp_path / "main.dd").write_text(
        "§ 1\n> take sword\n> fight\n> enemy OGRE AC 12 attack +3 damage 1d6 HP 12\n"
        "> it deals 1 (if calf following)\n> win -> 2\n\n§ 2\n> victory\n",
        encoding="utf-8",
    )
    report = validate_path(tmp_path, runs=0)
    (fight,) = report.fights
    assert fight.method == "estimate" and "calf following" in str(fight.estimated_because)
    assert "I115" in {f.code for f in report.findings}
