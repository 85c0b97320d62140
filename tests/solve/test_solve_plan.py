"""``dedale solve --plan``: the best walkthrough written as a test plan that ``dedale test``
plays through."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from dedale.cli import main
from dedale.plans.model import Answer, At, Choose, Drop, Eat, Ending
from dedale.plans.parser import read_plan
from dedale.solve.plan import plan_steps
from dedale.solve.walkthrough import Step

BOOKS = Path(__file__).parents[1] / "books_extra" / "solve"


def solve_plan(capsys, tmp_path, book: str, *hero: str) -> tuple[int, str, Path]:
    path = tmp_path / f"{book}.plan"
    args = ["solve", str(BOOKS / book), "--plan", str(path)]
    if hero:
        args += ["--hero", *hero]
    code = main(args)
    out, _ = capsys.readouterr()
    return code, out, path


def test_the_plan_of_a_small_book_passes_dedale_test(capsys, tmp_path):
    code, out, path = solve_plan(capsys, tmp_path, "fork", "8", "16", "8")
    assert code == 0 and f"plan written to {path} (seed 0)" in out
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# best walkthrough: with best play this hero wins 99.9835% of games")
    assert "at 1 / choose 2\nending: victory\n" in text
    assert main(["test", str(BOOKS / "fork"), str(path)]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_a_plan_of_decisions_in_a_fight_and_a_meal_passes(capsys, tmp_path):
    for book in ("flee", "meal"):
        code, _, path = solve_plan(capsys, tmp_path, book, "7", "14", "7")
        assert code == 0
        plan = read_plan(path)
        assert plan.seed is not None and plan.otherwise is False
        assert plan.steps[-1] == Ending("victory")
        assert main(["test", str(BOOKS / book), str(path)]) == 0
    assert Eat() in plan.steps  # meal: eat before the second fight


def test_a_french_book_gets_a_french_plan(capsys, tmp_path):
    code, out, path = solve_plan(capsys, tmp_path, "fourche", "7", "14", "7")
    assert code == 0
    text = path.read_text(encoding="utf-8")
    assert "au 1 / choisir 2\nfin : victoire\n" in text
    assert "# meilleure solution\u00a0: en jouant au mieux" in text
    assert read_plan(path).language == "fr"
    assert main(["test", str(BOOKS / "fourche"), str(path)]) == 0


def test_without_hero_the_median_hero_is_written(capsys, tmp_path):
    path = tmp_path / "fork.plan"
    code = main(["solve", str(BOOKS / "fork"), "--plan", str(path), "--luck", "fight"])
    capsys.readouterr()
    assert code == 0
    assert read_plan(path).hero == (("SKILL", 9), ("STAMINA", 19), ("LUCK", 9))


def test_each_decision_kind_is_a_plan_step():
    steps = [
        Step(1, {"kind": "choice", "target": 2, "text": "Go"}, 0.5),
        Step(2, {"kind": "meal"}, 0.5),
        Step(2, {"kind": "choice", "target": None, "text": "Say the word"}, 0.5),
        Step(2, {"kind": "answer", "value": 40}, 0.5),
        Step(40, None, 0.5),
        Step(40, {"kind": "drop", "item": "Rope"}, 0.5),
        Step(40, {"kind": "target", "enemy": "ORC"}, 0.5),
        Step(41, {"kind": "yes_no", "prompt": "optional_test", "answer": False}, 0.5),
        Step(41, {"kind": "escape", "target": 20}, 0.5),
    ]
    assert plan_steps(steps, won=True) == (
        At(1), Choose(target=2), At(2), Eat(), Choose(text="Say the word"), Answer(40),
        At(40), Drop("Rope"), Answer("ORC"), At(41), Answer(False), Answer(True),
        Ending("victory"),
    )  # fmt: skip
    assert plan_steps(steps[:1], won=False) == (At(1), Choose(target=2))


def test_an_unwritable_plan_is_a_usage_error(capsys, tmp_path):
    (tmp_path / "missing").write_text("a file, not a folder\n")  # a missing folder is made
    path = tmp_path / "missing" / "x.plan"
    code = main(["solve", str(BOOKS / "fork"), "--hero", "8", "16", "8", "--plan", str(path)])
    assert code == 2
    assert "cannot write the plan" in capsys.readouterr().err


def test_the_plan_of_first_steps_passes_dedale_test(capsys, tmp_path):
    book = Path(__file__).parents[2] / "books" / "first-steps"
    path = tmp_path / "first-steps.plan"
    code = main(["solve", str(book), "--hero", "9", "19", "9", "--plan", str(path)])
    assert code == 0
    plan = read_plan(path)
    assert plan.seed is not None and plan.steps[-1] == Ending("victory")
    assert At(12) in plan.steps  # the line with the rope and the password
    assert main(["test", str(book), str(path)]) == 0


def test_a_french_plan_names_the_stats_in_french_and_test_reads_both(capsys, tmp_path):
    code, _, path = solve_plan(capsys, tmp_path, "fourche", "7", "14", "7")
    assert code == 0
    text = path.read_text(encoding="utf-8")
    assert "héros : HABILETÉ 7 ENDURANCE 14 CHANCE 7\n" in text
    for word in ("SKILL", "STAMINA", "LUCK", "hero", "seed", "otherwise", "choose"):
        assert word not in text, word
    assert read_plan(path).hero == (("HABILETÉ", 7), ("ENDURANCE", 14), ("CHANCE", 7))
    assert main(["test", str(BOOKS / "fourche"), str(path)]) == 0
    english = tmp_path / "english-names.plan"
    english_names = text.replace("HABILETÉ 7 ENDURANCE 14 CHANCE 7", "SKILL 7 STAMINA 14 LUCK 7")
    english.write_text(english_names, encoding="utf-8")
    assert main(["test", str(BOOKS / "fourche"), str(english)]) == 0
    assert "english-names.plan\u00a0: réussi" in capsys.readouterr().out


def test_an_english_plan_keeps_english_stat_names(capsys, tmp_path):
    code, _, path = solve_plan(capsys, tmp_path, "fork", "8", "16", "8")
    assert code == 0
    assert "hero: SKILL 8 STAMINA 16 LUCK 8\n" in path.read_text(encoding="utf-8")


def test_the_plan_folder_is_made_and_the_file_written_whole(capsys, tmp_path):
    path = tmp_path / "book" / "tests" / "best.plan"
    code = main(["solve", str(BOOKS / "fork"), "--hero", "8", "16", "8", "--plan", str(path)])
    assert code == 0 and f"plan written to {path}" in capsys.readouterr().out
    assert [p.name for p in path.parent.iterdir()] == ["best.plan"]  # no temporary left
    mask = os.umask(0o022)
    os.umask(mask)
    assert path.stat().st_mode & 0o777 == 0o666 & ~mask  # not mkstemp's 0600
    assert main(["test", str(BOOKS / "fork"), str(path)]) == 0


@pytest.mark.parametrize("where", ["a-file/x.plan", "."])
def test_a_plan_path_that_cannot_be_written_is_a_clear_error(capsys, tmp_path, where):
    (tmp_path / "a-file").write_text("not a folder\n")
    target = tmp_path / where
    code = main(["solve", str(BOOKS / "fork"), "--hero", "8", "16", "8", "--plan", str(target)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"dedale solve: cannot write the plan {target}: " in err
    assert "File exists" not in err  # a file where a folder should be: "Not a directory"
    assert "give --plan a file path in a folder you can write to" in err
    assert "Traceback" not in err


def test_a_cut_solve_does_not_say_the_hero_cannot_win(capsys, tmp_path):
    path = tmp_path / "cut.plan"
    argv = ["solve", str(BOOKS / "fork"), "--hero", "8", "16", "8", "--max-states", "3"]
    main([*argv, "--plan", str(path)])
    capsys.readouterr()
    text = path.read_text(encoding="utf-8")
    assert "# the solve stopped before it found a winning line: the plan has no ending\n" in text
    assert "cannot win" not in text
