"""Plans played on the Salt Road test book: every expectation kind, every finding code,
and a plan that no longer fits after an edit of the book."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.plans import parse_plan
from dedale.plans import runner as plan_runner
from dedale.plans.runner import run_plan

SALT_ROAD = Path(__file__).resolve().parents[1] / "books_extra" / "plans"
HEADER = "hero: SKILL 11 STAMINA 18 LUCK 10\nname: Morwen\notherwise: no\n"


@pytest.fixture(scope="module")
def book():
    return load_book(SALT_ROAD)


def play(book, body: str, header: str = HEADER):
    return run_plan(book, parse_plan(header + body, "t.plan"))


def codes(result) -> list[tuple[str, int]]:
    return [(f.code, f.span.line if f.span else 0) for f in result.findings]


def messages(result, lang: str = "en") -> list[str]:
    return [f.message.translate(lang) for f in result.findings]


@pytest.mark.parametrize("plan", sorted((SALT_ROAD / "tests").glob("*.plan")))
def test_the_books_own_plans_pass(book, plan):
    from dedale.plans import read_plan

    result = run_plan(book, read_plan(plan))
    assert result.findings == []
    assert result.outcome in ("victory", "death")


def test_every_expectation_kind_that_holds(book):
    result = play(
        book,
        "at 1\n"
        "expect gold 2, gold >= 1, gold < 3, STAMINA 18, not Lantern, not DRIFTWOOD\n"
        "choose 3\n"
        "expect Lantern, DRIFTWOOD, gulls fed, shells found 2, meals 10, LUCK > 9\n"
        "eat\n"
        "expect meals 9, STAMINA <= 18\n"
        "choose #1\n"
        "dice: 1 1\n"
        "at 6\n"
        "choose Set the dial\n"
        "answer 14\n"
        "ending: victory\n",
    )
    assert result.findings == []
    assert (result.outcome, result.paragraph) == ("victory", 14)


def test_expectations_that_fail_are_each_reported(book):
    result = play(
        book,
        "at 2\n"  # line 4: the game is at 1
        "expect gold 3, Lantern, not gold, STAMINA > 18, fish 2\n"  # line 5
        "choose 3\n"
        "ending: victory\n",  # line 7: the game still asks
    )
    assert codes(result) == [
        ("P010", 4), ("P011", 5), ("P011", 5), ("P011", 5), ("P011", 5), ("P012", 5),
        ("P022", 7),
    ]  # fmt: skip
    assert messages(result)[:3] == [
        "plan line 4 expects § 2; the game is at § 1",
        "plan line 5 expects gold 3; it is 2",
        "plan line 5 expects Lantern held; it is not",
    ]
    columns = [f.span.column for f in result.findings if f.span.line == 5]
    assert columns == [8, 16, 25, 35, 49]


def test_a_choice_not_offered_says_what_is(book):
    result = play(book, "at 1 / choose 6\nending: victory\n")
    assert codes(result) == [("P020", 4)]
    assert messages(result) == ["plan line 4 expects a choice to 6; § 1 offers 2, 3"]
    assert result.steps == 1  # the plan stops at the divergence


def test_a_closed_choice_gives_its_reason(book):
    result = play(book, "choose 2\ndice: 1 1\ndrop Lantern\nchoose 7\n")
    assert codes(result) == [("P021", 6)]  # the Lantern was never taken
    result = play(book, "choose 3\nchoose 2\ndice: 1 1\ndrop Lantern\nchoose 7\n")
    assert codes(result) == [("P020", 8)]
    assert "closed" in result.findings[0].hint.translate("en")


def test_an_answer_that_does_not_fit(book):
    result = play(book, "answer yes\n")
    assert codes(result) == [("P021", 4)]
    assert messages(result) == ["plan line 4 answers yes, but § 1 asks for a choice (2, 3)"]
    result = play(book, "choose 2\ndice: 1 1\nat 6 / answer ORC\n")
    assert codes(result) == [("P021", 6)]
    result = play(book, "choose 2\ndice: 1 1\neat\n")
    assert codes(result) == [("P021", 6)]
    assert result.findings[0].hint.translate("en") == "no meal may be eaten here"


def test_a_yes_no_question_left_open_without_otherwise(book):
    header = "hero: SKILL 11 STAMINA 18 LUCK 10\nname: Morwen\n"
    result = play(book, "choose 2\nchoose 5\n", header=header)
    assert codes(result) == [("P021", 4)]
    assert "a yes/no question (“Test your Luck on this wound?”)" in messages(result)[0]
    assert (
        "une réponse oui ou non («\u00a0Voulez-vous tenter votre Chance"
        in messages(result, "fr")[0]
    )
    result = play(book, "choose 2\nanswer no\nstop\n", header=header)
    assert result.findings == []


def test_a_number_answered_at_a_hidden_number_choice_takes_that_choice(book):
    result = play(book, "choose 2\ndice: 1 1\nat 6 / answer 13\n")
    assert codes(result) == [("P022", 6)]  # a wrong number: the dial still waits
    result = play(book, "choose 2\ndice: 1 1\nat 6 / answer 14\nat 14\nstop\n")
    assert result.findings == []


def test_the_game_ends_before_the_plan(book):
    result = play(book, "choose 3\nchoose 5\nchoose 2\n")
    assert codes(result) == [("P023", 6)]
    assert messages(result) == ["plan line 6 has more to play, but the game ended (death) at § 5"]


def test_the_wrong_ending(book):
    result = play(book, "choose 3\nchoose 5\nending: victory\n")
    assert codes(result) == [("P024", 6)]
    assert messages(result) == ["plan line 6 expects victory; the game ended in death at § 5"]


def test_a_plan_that_ends_before_the_game(book):
    result = play(book, "choose 3\n")
    assert codes(result) == [("P022", 4)]
    assert "add the next decisions" in result.findings[0].hint.translate("en")
    assert play(book, "choose 3\nstop\n").findings == []


def test_a_hero_the_book_cannot_make(book):
    result = play(book, "stop\n", header="hero: SKILL 10 MAGIC 3\n")
    assert codes(result) == [("P002", 1)]
    assert "MAGIC is not a stat" in messages(result)[0]
    result = play(book, "stop\n", header="hero: SKILL 10 LUCK 3\n")
    assert codes(result) == [("P002", 1)]
    result = play(book, "stop\n", header="hero: SKILL 10\nclass: Wizard\n")
    assert codes(result) == [("P002", 2)] or codes(result)[0][0] == "P002"


def test_findings_speak_french_for_a_french_plan(book):
    text = "héros : HABILETÉ 11 ENDURANCE 18 CHANCE 10\nsinon : non\nau 1 / choisir 6\n"
    result = run_plan(book, parse_plan(text, "f.plan"))
    assert result.lang == "fr"
    assert messages(result, "fr") == [
        "la ligne 3 du plan attend un choix vers 6\u202f; le § 1 offre 2, 3"
    ]


def test_every_run_is_bounded(book, monkeypatch):
    monkeypatch.setattr(plan_runner, "MAX_PULLS", 2)
    result = play(book, "choose 2\nat 6\nstop\n")
    assert [code for code, _ in codes(result)] == ["P031"]


def test_a_divergence_after_an_edit_of_the_book(tmp_path):
    folder = tmp_path / "salt-road"
    shutil.copytree(SALT_ROAD, folder)
    plan = (folder / "tests" / "dial.plan").read_text(encoding="utf-8")
    assert run_plan(load_book(folder), parse_plan(plan, "dial.plan")).findings == []
    source = folder / "book.dd"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("-> 3 Walk down", "-> 5 Walk down"), encoding="utf-8")
    result = run_plan(load_book(folder), parse_plan(plan, "dial.plan"))
    assert codes(result) == [("P020", 8)]
    assert messages(result) == ["plan line 8 expects a choice to 3; § 1 offers 2, 5"]


def test_playtest_steps(book):
    result = play(
        book,
        "at 1\nset STAMINA 30\nexpect STAMINA 30\njump 6\nat 6\ngod: on\nchoose 5\n"
        "expect STAMINA 30\nstop\n",
    )
    assert result.findings == []
    assert result.outcome == "death"  # god mode spares the hero's health, not a `death`
    result = play(book, "jump 99\n")
    assert codes(result) == [("P021", 4)]
    assert "no paragraph 99" in result.findings[0].hint.translate("en")


def test_playtest_actions_are_recorded(book):
    from dedale.events import ChoosePrompt
    from dedale.game import Game
    from dedale.plans.record import record_plan
    from dedale.plans.writer import write_plan

    game = Game.new(book, 4, hero=(10, 18, 9), name="Morwen", quiet=True)
    for action in (
        lambda: game.set_value("STAMINA", 25),
        lambda: game.force_dice([1, 1]),
        lambda: game.jump_to(4),
    ):
        while not isinstance(game.next(), ChoosePrompt):
            pass
        action()
    text = write_plan(record_plan(game))
    assert "at 1\nset STAMINA 25\nat 1\ndice: 1 1\nat 1 / jump 4\n" in text
    assert run_plan(book, parse_plan(text, "rec.plan")).findings == []


def test_a_paragraph_crossed_without_a_decision_says_where_the_dice_go(book):
    # § 2's fight and § 4's Luck test run without a decision: the game waits at § 6
    result = play(book, "at 1\nchoose 2\nat 4\nstop\n")
    ((code, line),) = codes(result)
    assert (code, line) == ("P010", 6)
    hint = result.findings[0].hint.translate("fr").replace("\u00a0", " ")
    assert hint.startswith("la partie a traversé le § 4 sans s'y arrêter")
    assert "`dés :` avant le choix" in hint
    elsewhere = play(book, "at 1\nchoose 2\nat 7\nstop\n")  # never entered: no such hint
    assert [f.hint for f in elsewhere.findings] == [None]
