"""Test lines as real books write them (issue 13 §6), as the loader reads them: the forms'
options on every kind of test, conditional modifiers, comparisons, ROLL / TIRAGE, and the
located errors of their misuse."""

from __future__ import annotations

import pytest
from dedale import ast
from dedale.language import parse_text

from .play_helpers import load_errors

HEADER = "---\ntitle: T\nlanguage: en\nruleset: {ruleset}\n---\n§ 1\n"
END = "\n§ 2\n> victory\n"


def _body(line: str) -> tuple:
    return parse_text(f"§ 1\n{line}\n", "a").paragraphs[0].body


@pytest.mark.parametrize(
    ("line", "kind", "optional", "repeat"),
    [
        ("> test your luck (optional)", ast.Test, True, False),
        ("> tentez votre chance (facultatif)", ast.Test, True, False),
        ("> test your skill (until success)", ast.Test, False, True),
        ("> tentez votre habileté (jusqu'à réussite)", ast.Test, False, True),
        ("> tentez votre habileté (jusqu’à la réussite, facultatif)", ast.Test, True, True),
        ("> test FOR+AGL +1 (risk, optional)", ast.DuoTest, True, False),
        ("> check DEX hard (athletics, until success)", ast.D20Test, False, True),
        ("> roll 4d6 against STAMINA +2 (optional)", ast.Test, True, False),
        ("> lancez 2d6 contre 2d6 (facultatif)", ast.Test, True, False),
    ],
)
def test_every_kind_of_test_takes_the_forms(line, kind, optional, repeat):
    (test,) = _body(line)
    assert type(test) is kind
    assert (test.optional, test.repeat) == (optional, repeat)


def test_a_duo_test_keeps_its_difficulty_beside_a_conditional_modifier():
    (test,) = _body("> test FOR+AGL +1 -2 if Rope")
    assert test.difficulty == 1
    assert [(m.value, type(m.condition).__name__) for m in test.modifiers] == [(-2, "HasItem")]


@pytest.mark.parametrize(
    ("line", "condition"),
    [
        ("> test your skill -1 if Dagger", "HasItem"),
        ("> test your skill -1 if item Silver Dagger", "HasItem"),
        ("> tentez votre habileté -1 si mot-code Béni", "HasCodeword"),
        ("> test your skill +1 if not Lantern", "Not"),
        ("> test your skill -2 if status Poisoned", "HasStatus"),
        ("> tentez votre habileté -2 si ENDURANCE < 5", "Compare"),
    ],
)
def test_a_modifier_may_depend_on_items_or_state(line, condition):
    (test,) = _body(line)
    (modifier,) = test.modifiers
    assert type(modifier.condition).__name__ == condition


def test_a_conditional_modifier_may_carry_a_tag():
    (test,) = _body("> test your skill -2 if Rope (climbing)")
    (modifier,) = test.modifiers
    assert (modifier.value, modifier.tags, modifier.condition.item) == (-2, ("climbing",), "Rope")


def test_a_comparison_is_not_a_dice_test_against_a_stat():
    compared, against_stat = _body("> roll 2d6+1 against 2d6\n> roll 4d6 against STAMINA")
    assert (compared.dice.text, compared.against.text, compared.name) == ("2d6+1", "2d6", "")
    assert (against_stat.dice.text, against_stat.against, against_stat.name) == (
        "4d6", None, "STAMINA",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("word", "outcome"),
    [("higher", "higher"), ("supérieur", "higher"), ("lower", "lower"), ("inférieur", "lower"),
     ("equal", "equal"), ("égalité", "equal"), ("égal", "equal"), ("declined", "declined"),
     ("refus", "declined"), ("refusé", "declined")],
)  # fmt: skip
def test_the_new_outcomes(word, outcome):
    (compared,) = _body(f"> roll 2d6 against 2d6 (optional)\n> {word} -> 3")
    assert compared.branches[0].outcome == outcome


def test_roll_is_a_keyword_in_capitals_only():
    roll, loss, item = _body("> roll 1d6\n> lose ROLL STAMINA\n> lose Roll of Parchment")
    assert type(loss.amount) is ast.LastRoll
    assert (type(item), item.item) == (ast.LoseItem, "Roll of Parchment")


def test_expressions_still_add_beside_conditional_modifiers():
    _roll, goto, condition = _body("> roll 1d6\n> go to [ROLL + 50]\n> if SKILL + 2 > 5 -> 3")
    assert (type(goto.target.expr.left), goto.target.expr.op) == (ast.LastRoll, "+")
    assert condition.condition.left.op == "+"


def _errors(tmp_path, line: str, ruleset: str = "df-classic") -> list:
    text = HEADER.format(ruleset=ruleset) + line + "\n> success -> 2\n> failure -> 2\n" + END
    return load_errors(tmp_path, text)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("> roll 2d6 against 2d6 (until success)", "(until success) / (jusqu'à réussite) does"),
        ("> roll 4d6 against STAMINA (risk)", "(risk) / (risque) does not apply to a dice"),
        ("> lose ROLL STAMINA", "ROLL / TIRAGE is read here, but no dice were rolled"),
    ],
)
def test_misuses_are_located_errors(tmp_path, line, message):
    error = _errors(tmp_path, line)[0]
    assert str(error.message).startswith(message)
    assert error.span.line == 7
    assert error.hint


def test_a_conditional_modifier_on_a_fight_is_refused_at_its_line(tmp_path):
    text = HEADER.format(ruleset="df-classic")
    text += "> fight ORC SKILL 5 STAMINA 5\n> attack +1 -1 if Sword\n> win -> 2\n" + END
    (error,) = load_errors(tmp_path, text)
    assert str(error.message) == "a modifier with `if` / `si` applies to a test only"
    assert (error.span.line, error.span.column) == (8, 13)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("> test your luck\n> declined -> 2\n> lucky -> 2\n> unlucky -> 2",
         "only an optional test can be declined"),
        ("> tentez votre chance\n> refus -> 2\n> chanceux -> 2\n> malchanceux -> 2",
         "only an optional test can be declined"),
        ("> roll 2d6 against 2d6\n> success -> 2\n> higher -> 2\n> lower -> 2\n> equal -> 2",
         "a comparison of two rolls ends higher, lower or equal, never on this outcome"),
        ("> test your skill\n> higher -> 2\n> success -> 2\n> failure -> 2",
         "higher, lower and equal are the outcomes of a comparison of two rolls"),
    ],
)  # fmt: skip
def test_an_outcome_the_test_never_ends_on_is_a_located_error(tmp_path, lines, message):
    text = HEADER.format(ruleset="df-classic") + lines + END
    (error,) = load_errors(tmp_path, text)
    assert str(error.message) == message
    assert (error.span.line, error.span.column) == (8, 3)
    assert error.hint


@pytest.mark.parametrize(
    "line",
    [
        "> test your skill (-1 if Dagger)",
        "> test your skill (−1 if Dagger)",  # the minus sign of a word processor
        "> test your skill −1 if Dagger",
        "> tentez votre habileté (−1 si Dagger) (facultatif)",
    ],
)
def test_a_conditional_modifier_in_parentheses_or_with_a_minus_sign(line):
    (test,) = _body(line)
    (modifier,) = test.modifiers
    assert (modifier.value, modifier.condition.item) == (-1, "Dagger")
    assert test.optional is ("facultatif" in line)


def test_a_roll_read_too_early_is_found_in_a_fresh_process(tmp_path):
    """The ROLL check is skipped while the parser has made no ROLL (roll_refs.PARSED): a
    process whose first book reads none still finds the one its second book reads early."""
    import subprocess
    import sys

    plain = HEADER.format(ruleset="df-classic") + "> fight ORC SKILL 5 STAMINA 5\n> win -> 2\n"
    (tmp_path / "plain.dd").write_text(plain + END, encoding="utf-8")
    early = HEADER.format(ruleset="df-classic") + "> lose ROLL STAMINA\n> go to 2\n"
    (tmp_path / "early.dd").write_text(early + END, encoding="utf-8")
    script = (
        "import sys\n"
        "from dedale.errors import BookLoadError\n"
        "from dedale.language import load_book\n"
        "load_book(sys.argv[1])\n"
        "try:\n"
        "    load_book(sys.argv[2])\n"
        "except BookLoadError as error:\n"
        "    print([(e.span.line, str(e.message)) for e in error.errors])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(tmp_path / "plain.dd"), str(tmp_path / "early.dd")],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "(7, 'ROLL / TIRAGE is read here, but no dice were rolled before it')" in done.stdout
