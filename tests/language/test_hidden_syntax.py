"""The hidden-number lines of issue 13.1 in both keyword languages: the choice-line prompt
with its answers, the directive with its own answers, the wrong-number lines attached to
the prompt before them; malformed uses are located errors."""

from __future__ import annotations

import pytest
from dedale import ast
from dedale.errors import BookLoadError
from dedale.language.parser import parse_text


def _body(text: str) -> tuple[ast.Statement, ...]:
    return parse_text(text, "x.dd").paragraphs[0].body


@pytest.mark.parametrize(
    "line",
    [
        "-> ? (40, 56) If you know the number, turn to it",
        "-> hidden number (40, 56) If you know the number, turn to it",
        "-> nombre secret (40, 56) Si vous connaissez le nombre, rendez-vous-y",
        "-> numéro secret (40,56) Si vous connaissez le nombre, rendez-vous-y",
    ],
)
def test_the_choice_line_prompt_in_both_languages(line):
    (prompt,) = _body(f"§ 1\n{line}\n")
    assert isinstance(prompt, ast.HiddenNumber) and prompt.offered
    assert [ref.number for ref in prompt.answers] == [40, 56]
    assert prompt.text.startswith(("If you know", "Si vous"))
    assert (prompt.otherwise, prompt.wrong, prompt.condition) == (None, (), None)


def test_the_prompt_takes_a_condition_and_labels_as_answers():
    (prompt,) = _body("§ 1\n-> ? (vault, 56) (si Clé, grisé) Composer le nombre\n")
    assert prompt.answers[0].label == "vault" and prompt.answers[1].number == 56
    assert isinstance(prompt.condition, ast.HasItem) and prompt.display == "disabled"


@pytest.mark.parametrize(
    ("lines", "kind"),
    [
        ("> wrong number: death", ast.Ending),
        ("> mauvais nombre : mort", ast.Ending),
        ("> wrong number -> 12", ast.Goto),
        ("> mauvais numéro -> 12", ast.Goto),
        ("> wrong answer: lose 2 STAMINA", ast.ChangeValue),
        ("> mauvaise réponse : perdez 2 ENDURANCE", ast.ChangeValue),
    ],
)
def test_wrong_number_lines_attach_to_the_prompt_before_them(lines, kind):
    prompt, choice = _body(f"§ 1\n-> ? (40) Try\n> {lines[2:]}\n-> 2 Leave\n")
    assert isinstance(choice, ast.Choice)
    (wrong,) = prompt.wrong
    assert isinstance(wrong, kind)


def test_several_wrong_number_lines_run_in_order():
    (prompt,) = _body(
        "§ 1\n> hidden number (40)\n> wrong number: lose 2 STAMINA\n> wrong number -> 9\n"
    )
    assert [type(s) for s in prompt.wrong] == [ast.ChangeValue, ast.Goto]


@pytest.mark.parametrize(
    ("line", "answers", "otherwise"),
    [
        ("> hidden number otherwise -> 3", None, 3),  # the issue-8 form, unchanged
        ("> nombre secret sinon -> 3", None, 3),
        ("> hidden number (40, 56) otherwise -> 3", [40, 56], 3),
        ("> nombre secret (40), sinon -> 3", [40], 3),
        ("> hidden number (40)", [40], None),
        ("> le numéro que vous connaissez (40)", [40], None),
    ],
)
def test_the_directive_with_or_without_answers(line, answers, otherwise):
    (prompt,) = _body(f"§ 1\n{line}\n")
    assert not prompt.offered
    assert (None if prompt.answers is None else [r.number for r in prompt.answers]) == answers
    assert (prompt.otherwise.number if prompt.otherwise else None) == otherwise


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("§ 1\n> wrong number: death\n", (2, 3), "without a hidden-number prompt"),
        ("§ 1\n-> 2 Go\n> mauvais nombre -> 3\n", (3, 3), "without a hidden-number prompt"),
        ("§ 1\n-> ? If you know it\n", (2, 6), ""),
        ("§ 1\n-> ? () Try\n", (2, 7), ""),
        ("§ 1\n-> ? (40) (pay 2 gold) Try\n", (2, 1), "cannot take `pay`"),
        ("§ 1\n> hidden number (40\n", (2, 20), ""),
    ],
)
def test_malformed_hidden_numbers_are_located(text, where, words):
    with pytest.raises(BookLoadError) as caught:
        parse_text(text, "x.dd")
    (error,) = caught.value.errors
    assert (error.span.line, error.span.column) == where
    assert words in error.message
    assert error.hint
