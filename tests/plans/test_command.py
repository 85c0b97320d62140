"""``dedale test`` (every format, exit codes, the sample books' plans) and
``dedale play --plain --record`` recorded then replayed by ``dedale test``."""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import pytest
from dedale.cli import main

ROOT = Path(__file__).resolve().parents[2]
SALT_ROAD = ROOT / "tests" / "books_extra" / "plans"
SAMPLE_PLANS = sorted((ROOT / "books").glob("*/tests/*.plan"))


def test_every_sample_book_has_a_victory_and_a_death_plan():
    books = {path.name for path in (ROOT / "books").iterdir() if path.is_dir()}
    books.discard("__pycache__")
    for name in books:
        plans = {path.name for path in (ROOT / "books" / name / "tests").glob("*.plan")}
        assert {"victory.plan", "death.plan"} <= plans, name


@pytest.mark.parametrize("plan", SAMPLE_PLANS, ids=lambda p: f"{p.parents[1].name}/{p.name}")
def test_the_sample_books_plans_pass(plan, capsys):
    assert main(["test", str(plan.parents[1]), str(plan)]) == 0
    out = capsys.readouterr().out
    assert "passed" in out or "réussi" in out


def test_default_plans_are_the_books_tests_folder(capsys):
    assert main(["test", str(SALT_ROAD)]) == 0
    out = capsys.readouterr().out
    assert "dial.plan: passed (victory at § 14)" in out
    assert "lanterne.plan\u00a0: réussi (mort au § 5)" in out  # a French plan speaks French
    assert "2 plans: 2 passed, 0 failed" in out


def test_a_bundled_book_by_name(capsys):
    assert main(["test", "first-steps"]) == 0
    assert "2 plans: 2 passed" in capsys.readouterr().out


def test_no_plan_is_a_usage_error(tmp_path, capsys):
    folder = tmp_path / "book"
    shutil.copytree(SALT_ROAD, folder)
    shutil.rmtree(folder / "tests")
    assert main(["test", str(folder)]) == 2
    assert "no plan to run" in capsys.readouterr().err


@pytest.fixture
def edited(tmp_path, monkeypatch):
    """A copy of the Salt Road whose quay no longer leads to the beach (paths relative)."""
    folder = tmp_path / "salt-road"
    shutil.copytree(SALT_ROAD, folder)
    source = folder / "book.dd"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("-> 3 Walk down", "-> 5 Walk down"), encoding="utf-8")
    (folder / "tests" / "broken.plan").write_text("hero: SKILL 10\nchoos 3\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return Path("salt-road")


def test_text_report_of_a_book_that_diverged(edited, capsys, snapshot):
    assert main(["test", str(edited)]) == 1
    out = capsys.readouterr().out
    assert "salt-road/tests/dial.plan:8:1: error P020 plan line 8 expects a choice to 3" in out
    assert "salt-road/tests/broken.plan:2:1: error P001 unknown plan keyword `choos`" in out
    assert out == snapshot


def test_json_report(edited, capsys):
    assert main(["test", str(edited), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["schema"] == "dedale-test/1"
    assert data["summary"] == {"plans": 3, "failed": 3}
    dial = next(plan for plan in data["plans"] if plan["file"].endswith("dial.plan"))
    assert dial["passed"] is False and dial["outcome"] is None
    finding = dial["findings"][0]
    assert (finding["code"], finding["name"], finding["line"], finding["column"]) == (
        "P020", "choice-not-offered", 8, 1,
    )  # fmt: skip
    assert finding["paragraph"] == 1


def test_github_report(edited, capsys):
    assert main(["test", str(edited), "--format", "github"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert (
        "::error file=salt-road/tests/dial.plan,line=8,col=1,endLine=8,endColumn=9,"
        "title=P020 choice-not-offered::plan line 8 expects a choice to 3%3B" not in lines[0]
    )
    assert any(
        line.startswith("::error file=salt-road/tests/dial.plan,line=8,col=1,")
        and "title=P020 choice-not-offered::plan line 8 expects a choice to 3" in line
        for line in lines
    )


def test_sarif_report(edited, capsys):
    assert main(["test", str(edited), "--format", "sarif", "--lang", "fr"]) == 1
    data = json.loads(capsys.readouterr().out)
    run = data["runs"][0]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]][:3] == ["P001", "P002", "P003"]
    result = next(r for r in run["results"] if r["ruleId"] == "P020")
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "salt-road/tests/dial.plan"
    assert location["region"]["startLine"] == 8
    assert result["message"]["text"].startswith("la ligne 8 du plan attend un choix vers 3")


def _play(monkeypatch, capsys, book: Path, typed: str, record: Path) -> int:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    argv = ["play", str(book), "--plain", "--seed", "7", "--hero", "11", "18", "10"]
    code = main([*argv, "--name", "Morwen", "--record", str(record)])
    capsys.readouterr()
    return code


def test_record_then_test_a_victory(tmp_path, monkeypatch, capsys):
    record = tmp_path / "walk.plan"
    # the beach, a meal (yes, at full STAMINA), back to the road, the fight (no Luck), the
    # dial: 14
    typed = "2\neat\ny\n1\nn\nn\nn\nn\nn\nn\n1\n14\n"  # extra "n" at the choice: refused
    assert _play(monkeypatch, capsys, SALT_ROAD, typed, record) == 0
    text = record.read_text(encoding="utf-8")
    assert text.startswith("# recorded by dedale play --record: The Salt Road")
    assert "seed: 7\n" in text and "at 1 / choose 3\n" in text and "eat\n" in text
    assert "answer 14" in text and text.endswith("ending: victory\n")
    assert main(["test", str(SALT_ROAD), str(record)]) == 0
    assert "walk.plan: passed (victory at § 14)" in capsys.readouterr().out


def test_record_a_game_quit_halfway(tmp_path, monkeypatch, capsys):
    record = tmp_path / "halfway.plan"
    assert _play(monkeypatch, capsys, SALT_ROAD, "2\nquit\n", record) == 4
    text = record.read_text(encoding="utf-8")
    assert text.endswith(
        "expect SKILL 11, STAMINA 18, LUCK 10, Provisions 10, Gold pieces 2, shells found 2, "
        "Lantern, DRIFTWOOD, gulls fed\nstop\n"
    )
    assert main(["test", str(SALT_ROAD), str(record)]) == 0
    capsys.readouterr()


def test_a_recorded_plan_says_where_an_edit_diverged(tmp_path, monkeypatch, capsys):
    record = tmp_path / "walk.plan"
    typed = "2\n1\nn\nn\nn\nn\nn\nn\n1\n14\n"
    assert _play(monkeypatch, capsys, SALT_ROAD, typed, record) == 0
    folder = tmp_path / "edited"
    shutil.copytree(SALT_ROAD, folder)
    source = folder / "book.dd"
    text = source.read_text(encoding="utf-8")
    source.write_text(text.replace("-> 2 Climb back", "-> 4 Climb back"), encoding="utf-8")
    assert main(["test", str(folder), str(record)]) == 1
    out = capsys.readouterr().out
    assert "expects a choice to 2; § 3 offers 4, 5" in out


def test_the_salt_road_validates_strictly(capsys):
    assert main(["validate", "--strict", "--runs", "50", str(SALT_ROAD)]) == 0
    capsys.readouterr()


def test_record_from_the_textual_player(tmp_path, monkeypatch, capsys):
    """``dedale play --record`` records whatever game the player hands back."""
    import dedale.player
    from dedale.game import Game
    from dedale.language import load_book

    def fake_player(args):
        game = Game.new(load_book(SALT_ROAD), 2, hero=(9, 16, 8), name="Morwen", quiet=True)
        while game.next() is not None:
            game.answer(2)  # the second choice twice: the beach, then the rocks
        args.game_played = game
        return 3

    monkeypatch.setattr(dedale.player, "run_player", fake_player)
    record = tmp_path / "rocks.plan"
    assert main(["play", str(SALT_ROAD), "--record", str(record)]) == 3
    assert "recorded as a plan" in capsys.readouterr().err
    assert record.read_text(encoding="utf-8").endswith("ending: death\n")
    assert main(["test", str(SALT_ROAD), str(record)]) == 0
    capsys.readouterr()

    monkeypatch.setattr(dedale.player, "run_player", lambda args: 0)  # back at the title
    assert main(["play", str(SALT_ROAD), "--record", str(tmp_path / "none.plan")]) == 0
    assert "no game to record" in capsys.readouterr().err
    assert not (tmp_path / "none.plan").exists()


def test_a_book_that_does_not_load_is_reported_in_the_format(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "broken"
    shutil.copytree(SALT_ROAD, folder)
    source = folder / "book.dd"
    source.write_text(source.read_text("utf-8").replace("> fight\n", "> fihgt\n"), "utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["test", "broken", "--format", "github"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("::error file=broken/book.dd,line=")
    assert "title=P003 book-load-error::" in out


def test_record_a_french_book_into_a_folder_not_made_yet(tmp_path, monkeypatch, capsys):
    """The stats are named as the book's language names them, the missing folders made."""
    book = ROOT / "books" / "le-puits-des-ombres"
    record = tmp_path / "puits" / "tests" / "court.plan"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\nquit\n"))
    argv = ["play", str(book), "--plain", "--seed", "3", "--hero", "11", "18", "10"]
    assert main([*argv, "--name", "Morwen", "--record", str(record)]) == 4
    assert "partie enregistrée comme plan" in capsys.readouterr().err
    text = record.read_text(encoding="utf-8")
    assert "héros : HABILETÉ 11 ENDURANCE 18 CHANCE 10\n" in text
    assert "attendu HABILETÉ 11, ENDURANCE 18, CHANCE 10, Repas 10" in text
    assert not any(word in text for word in ("SKILL", "STAMINA", "LUCK", "hero:", "expect"))
    assert [path.name for path in record.parent.iterdir()] == ["court.plan"]
    assert main(["test", str(book), str(record)]) == 0
    capsys.readouterr()


def test_record_where_no_file_can_be_made_says_so(tmp_path, monkeypatch, capsys):
    (tmp_path / "a-file").write_text("not a folder\n")
    record = tmp_path / "a-file" / "walk.plan"
    monkeypatch.setattr(sys, "stdin", io.StringIO("2\nquit\n"))
    argv = ["play", str(SALT_ROAD), "--plain", "--seed", "7", "--hero", "11", "18", "10"]
    assert main([*argv, "--record", str(record)]) == 4  # the game's own exit code
    err = capsys.readouterr().err
    assert f"dedale play: cannot write {record}" in err and "Traceback" not in err
