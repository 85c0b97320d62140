"""Fight odds with what the hero carries (issue 14.3): the items surely held at a fight
count, a weapon maybe held gives the range and is named, W030/W031 judge the worst."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.rules.odds import fight_odds
from dedale.validator import validate_path
from dedale.validator.graph import walk

BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "validator"
EVERY_PATH = BOOKS / "loadout-weapon-every-path.dd"
ONE_PATH = BOOKS / "W030-weapon-on-one-path.dd"
MEDIAN = {"SKILL": 9, "STAMINA": 19, "LUCK": 9}  # df-classic: 1d6+6, 2d6+12, 1d6+6


def _median_row(rows, luck: str) -> float:
    return next(o.win for o in rows if o.hero.level == "median" and o.luck == luck)


def test_a_weapon_given_on_every_path_is_used_by_the_odds_and_no_false_alarm():
    report = validate_path(EVERY_PATH, runs=0)
    assert report.findings == []
    (fight,) = report.fights
    assert fight.carried is not None and fight.carried.surely == {"silver sword"}
    assert fight.best == ()  # nothing maybe held changes it
    book = load_book(EVERY_PATH)
    expected = fight_odds(book.ruleset, 9 + 2, 19, [(12, 16)], luck=9, luck_policy="best")
    assert _median_row(fight.odds, "best") == pytest.approx(float(expected.win_probability))


def test_a_weapon_on_one_path_gives_the_range_and_w030_names_it():
    report = validate_path(ONE_PATH, runs=0)
    assert [(f.code, f.span.line) for f in report.findings] == [("W030", 22)]
    warning = report.findings[0]
    assert warning.data["items"] == ["Silver Sword"]
    (fight,) = report.fights
    worst, best = _median_row(fight.odds, "best"), _median_row(fight.best, "best")
    assert worst < 0.05 < best
    assert warning.data["win_probability"] == worst
    assert warning.data["best_loadout_win"] == round(best, 6)
    text = warning.message.translate("en")
    assert text.endswith("without Silver Sword (50.3% with it)")
    assert "sans Silver Sword (50,3\u202f% avec)" in warning.message.translate("fr")


def test_the_json_report_gives_both_loadouts_and_the_items_that_change_them():
    from dedale.validator.report import json as json_report

    report = validate_path(ONE_PATH, runs=0)
    stream = io.StringIO()
    json_report.render([report], stream)
    (fight,) = json.loads(stream.getvalue())["books"][0]["fights"]
    loadout = fight["loadout"]
    assert loadout["surely"] == [] and loadout["best"] == ["silver sword"]
    assert loadout["changing"] == ["Silver Sword"]
    median = [r for r in loadout["best_odds"] if r["hero"] == "median" and r["luck"] == "none"]
    assert median[0]["win"] > [r for r in fight["odds"] if r["hero"] == "median"][0]["win"]


def test_the_text_report_shows_the_best_loadout_row(monkeypatch, capsys, snapshot):
    from dedale.validator.cli import main

    monkeypatch.chdir(BOOKS)
    monkeypatch.setenv("COLUMNS", "100")
    main([ONE_PATH.name, EVERY_PATH.name, "--runs", "0", "--format", "text", "--strict"])
    out = capsys.readouterr().out
    assert "any with Silver Sword" in out
    assert out == snapshot


class _NoLuck:
    def answer(self, prompt):
        return False


def test_the_odds_with_the_item_agree_with_the_interpreter_within_3_se():
    """The median hero, given the Silver Sword by the interpreter's own `take`, fights the
    warden 3,000 times with seeded dice: the exact figure lies within 3 standard errors."""
    from dedale.game.rehearsal import FightRehearsal
    from dedale.rules import Character, RandomSource

    book = load_book(ONE_PATH)
    statements = [s for n in book.paragraphs.values() for s in walk(n.body)]
    sword = next(s for s in statements if type(s).__name__ == "GainItem")
    fight_statement = next(s for s in statements if type(s).__name__ == "Fight")
    rehearsal = FightRehearsal(book, 7)
    spec = rehearsal.spec(fight_statement)
    rng = RandomSource(2026)
    runs, won = 3000, 0
    for _ in range(runs):
        hero = Character(stats=dict(MEDIAN), initial=dict(MEDIAN))
        rehearsal.equip(hero, [sword], _NoLuck())
        result = rehearsal.play(fight_statement, spec, hero, rng, _NoLuck())
        won += result.outcome == "won"
    report = validate_path(ONE_PATH, runs=0)
    exact = _median_row(report.fights[0].best, "none")
    se = math.sqrt(exact * (1 - exact) / runs)
    assert abs(won / runs - exact) <= 3 * se, (won / runs, exact)


def test_the_starting_weapon_of_book_yaml_counts(tmp_path):
    path = tmp_path / "book.dd"
    path.write_text(
        "---\ntitle: t\nlanguage: en\nruleset: df-classic\n"
        "items:\n  - Silver Sword (weapon, SKILL +2)\n---\n"
        "§ 1\nThe warden rises.\n> fight BONE WARDEN SKILL 12 STAMINA 16\n> win -> 2\n"
        "> lose -> 3\n\n§ 2\nDaylight.\n> victory\n\n§ 3\nDust.\n> death\n",
        "utf-8",
    )
    report = validate_path(path, runs=0)
    assert [f.code for f in report.findings] == []
    (fight,) = report.fights
    assert fight.carried.surely == {"silver sword"}
    assert _median_row(fight.odds, "best") > 0.5


def test_w031_judges_the_worst_loadout_and_names_the_item(tmp_path):
    """SKILL 23: no hero wins bare-handed (12 + 12 < 23 + 2), the sword makes it possible."""
    text = ONE_PATH.read_text("utf-8").replace("SKILL 12 STAMINA 16", "SKILL 23 STAMINA 2")
    path = tmp_path / "book.dd"
    path.write_text(text, "utf-8")
    report = validate_path(path, runs=0)
    (warning,) = [f for f in report.findings if f.code == "W031"]
    assert warning.data["items"] == ["Silver Sword"] and warning.data["best_loadout_win"] > 0
    assert ", without Silver Sword (" in warning.message.translate("en")


def test_the_unarmed_penalty_and_the_best_weapon_are_the_interpreters():
    """attack_shift asks the fight's own code: the ruleset's unarmed penalty (df48.5: -2),
    none when the kit or the items hold a weapon, one weapon's bonus of two held."""
    import dataclasses

    from dedale.rules.loader import load_ruleset
    from dedale.validator.carried import attack_shift

    class _Items:
        effects: dict = {}
        names: dict = {}

    ruleset = load_ruleset("df48.5")
    assert attack_shift(ruleset, _Items(), frozenset(), None, "SKILL") == -2
    assert attack_shift(ruleset, _Items(), frozenset(), "Baroudeur", "SKILL") == 0  # BFG 9000
    assert attack_shift(ruleset, _Items(), frozenset({"bfg 9000"}), None, "SKILL") == 0
    book = load_book(ONE_PATH)
    statements = [s for n in book.paragraphs.values() for s in walk(n.body)]
    sword = next(s for s in statements if type(s).__name__ == "GainItem")
    items = _Items()
    items.effects = {"silver sword": sword, "axe": dataclasses.replace(sword, item="Axe")}
    assert attack_shift(book.ruleset, items, frozenset({"silver sword", "axe"}), None, "SKILL") == 2
