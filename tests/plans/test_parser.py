"""The plan language: both keyword languages, comments and quotes, located errors."""

from __future__ import annotations

import pytest
from dedale.plans import PlanError, parse_plan
from dedale.plans.model import Answer, At, Choose, Dice, Drop, Eat, Ending, Expect, Held, Value

ENGLISH = """\
# a comment
hero: SKILL 10 STAMINA 20 LUCK 9
name: Ariane
class: "Warrior"
gender: f
seed: 42
otherwise: no
dice: 6 6 1 2
at 1 / choose 12 / answer yes    // three steps on one line
expect STAMINA 18, Lantern, not Rope, LUCK >= 7
choose "Open the door, quietly"
choose #2
answer 40
answer ORC
eat
drop Brass Key
ending: victory
"""

FRENCH = """\
# un commentaire
héros : HABILETÉ 10 ENDURANCE 20 CHANCE 9
nom : Ariane
classe : « Guerrière »
genre : f
graine : 42
sinon : non
dés : 6 6 1 2
au 1 / choisir 12 / répondre oui    // trois étapes sur une ligne
attendu ENDURANCE 18, Lanterne, pas Corde, CHANCE >= 7
choisir "Ouvrir la porte, doucement"
choisir #2
répondre 40
répondre ORQUE
manger
jeter Clé de laiton
fin : victoire
"""


def _shape(plan):
    """The plan with its names left out (they are the book's, in either language)."""
    out = []
    for step in plan.steps:
        if isinstance(step, Expect):
            out.append(
                tuple(
                    (type(c).__name__, getattr(c, "operator", None), getattr(c, "number", None),
                     getattr(c, "held", None))
                    for c in step.checks
                )
            )  # fmt: skip
        elif isinstance(step, Choose):
            out.append(("choose", step.target, step.number, step.text is not None))
        elif isinstance(step, Answer | Drop):
            out.append((type(step).__name__, isinstance(getattr(step, "value", ""), str)))
        else:
            out.append(step)
    return out


def test_english_plan():
    plan = parse_plan(ENGLISH, "en.plan")
    assert plan.language == "en"
    assert plan.hero == (("SKILL", 10), ("STAMINA", 20), ("LUCK", 9))
    assert (plan.name, plan.class_name, plan.gender, plan.seed, plan.otherwise) == (
        "Ariane", "Warrior", "f", 42, False,
    )  # fmt: skip
    assert plan.steps == (
        Dice((6, 6, 1, 2)),
        At(1),
        Choose(target=12),
        Answer(True),
        Expect((Value("STAMINA", "=", 18), Held("Lantern"), Held("Rope", False),
                Value("LUCK", ">=", 7))),
        Choose(text="Open the door, quietly"),
        Choose(number=2),
        Answer(40),
        Answer("ORC"),
        Eat(),
        Drop("Brass Key"),
        Ending("victory"),
    )  # fmt: skip


def test_french_plan_has_the_same_shape():
    english = parse_plan(ENGLISH, "en.plan")
    french = parse_plan(FRENCH, "fr.plan")
    assert french.language == "fr"
    assert french.class_name == "Guerrière"
    assert french.hero == (("HABILETÉ", 10), ("ENDURANCE", 20), ("CHANCE", 9))
    assert _shape(french) == _shape(english)


def test_keywords_fold_case_and_accents():
    plan = parse_plan("HEROS: HABILETE 9\nAu 3\nRÉPONDRE OUI\nArrêt\n")
    assert plan.language == "fr"
    assert plan.steps == (At(3), Answer(True), Ending("stop"))


def test_steps_remember_their_line_and_column():
    plan = parse_plan(ENGLISH, "en.plan")
    choose = plan.steps[2]
    assert (choose.span.file, choose.span.line, choose.span.column) == ("en.plan", 9, 8)
    expect = plan.steps[4]
    assert [c.span.column for c in expect.checks] == [8, 20, 29, 39]


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("hero: SKILL 10\nchoos 3\n", 2, 1, ["unknown plan keyword `choos`", "choose"]),
        ("at 1\nhero: SKILL 10\n", 2, 1, ["belongs before the steps"]),
        ("hero: SKILL 10\nhero: SKILL 9\n", 2, 1, ["given twice"]),
        ("dice: 6 0\n", 1, 9, ["a die shows 1 to"]),
        ("dice: 6 x\n", 1, 9, ["a number is expected"]),
        ("at twelve\n", 1, 4, ["a number is expected"]),
        ("ending: triumph\n", 1, 9, ["victory or death", "stop"]),
        ("hero: 10 SKILL\n", 1, 7, ["cannot read the hero's stats"]),
        ("eat 3\n", 1, 5, ["takes nothing after it"]),
        ("choose\n", 1, 7, ["needs a value"]),
        ("expect STAMINA 3,, Rope\n", 1, 18, ["missing between commas"]),
        ("gender: x\n", 1, 9, ["f or m"]),
        ("otherwise: maybe\n", 1, 12, ["yes or no"]),
        ("seed: -1\n", 1, 7, ["out of range"]),
        ("answer 99999999999\n", 1, 8, ["out of range"]),
    ],
)
def test_errors_are_located(text, line, column, words):
    with pytest.raises(PlanError) as caught:
        parse_plan(text, "bad.plan")
    error = caught.value
    assert (error.span.file, error.span.line, error.span.column) == ("bad.plan", line, column)
    rendered = error.render()
    for word in words:
        assert word in rendered
    assert "^" in rendered or error.span.file == "bad.plan"


def test_errors_speak_the_plan_language():
    with pytest.raises(PlanError) as caught:
        parse_plan("héros : HABILETÉ 10\nchoisr 3\n", "mauvais.plan")
    rendered = caught.value.render()
    assert "mauvais.plan:2:1" in rendered
    assert "mot-clé de plan inconnu" in rendered
    assert "choisir" in rendered


def test_a_missing_file_is_a_plan_error(tmp_path):
    from dedale.plans import read_plan

    with pytest.raises(PlanError, match="no such plan file"):
        read_plan(tmp_path / "nothing.plan")
    big = tmp_path / "big.plan"
    big.write_text("# x\n" * 300_000)
    with pytest.raises(PlanError, match="at most"):
        read_plan(big)
