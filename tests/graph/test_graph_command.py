"""``dedale graph`` on a book of its own (tests/books_extra/map): every format, the parts of
the map (--from, --around), the marks of the validator's findings, and its errors."""

from __future__ import annotations

import json
import shutil
from xml.etree import ElementTree

import pytest
from dedale.cli import main

BOOK = "tests/books_extra/map"
ODDS = ["--odds-seconds", "60"]  # the hound's odds are exact and fast: never cut by the budget


def graph(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["graph", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("fmt", ["dot", "mermaid", "json"])
def test_each_text_format(fmt, capsys, monkeypatch, repo_root, snapshot):
    monkeypatch.chdir(repo_root)
    code, out, err = graph(capsys, BOOK, "--format", fmt, *ODDS)
    assert (code, err) == (0, "")
    assert out == snapshot


def test_the_json_map_marks_each_finding_on_its_paragraph(capsys, monkeypatch, repo_root):
    monkeypatch.chdir(repo_root)
    _, out, _ = graph(capsys, BOOK, "--format", "json", *ODDS)
    data = json.loads(out)
    marks = {node["number"]: [f["mark"] for f in node["findings"]] for node in data["nodes"]}
    assert marks[4] == ["dead-end"]
    assert marks[5] == ["deadly-fight"]
    assert marks[8] == ["unreachable"]
    assert marks[30] == []  # hidden, reached by the miller's number: no finding
    kinds = {node["number"]: node["kinds"] for node in data["nodes"]}
    assert kinds[1] == ["start"] and kinds[2] == ["test"] and kinds[5] == ["fight"]
    assert kinds[7] == ["victory"] and kinds[30] == ["hidden"]
    assert data["files"] == ["01-the-road.dd", "02-the-mill.dd"]
    labels = {(e["source"], e["target"]): e["label"] for e in data["edges"]}
    assert labels[(1, 3)] == "if codeword MILESTONE"
    assert labels[(3, 6)] == "if SKILL >= 9"
    assert labels[(2, 4)] == "unlucky"
    assert labels[(5, 6)] == "win"


def test_without_odds_no_fight_is_marked(capsys, monkeypatch, repo_root):
    monkeypatch.chdir(repo_root)
    _, out, _ = graph(capsys, BOOK, "--format", "json", "--odds-seconds", "0")
    nodes = {node["number"]: node for node in json.loads(out)["nodes"]}
    assert nodes[5]["findings"] == []
    assert [f["code"] for f in nodes[8]["findings"]] == ["W013"]


def test_svg_holds_every_paragraph_number(capsys, monkeypatch, repo_root, tmp_path):
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not installed (.ci/run installs it)")
    monkeypatch.chdir(repo_root)
    target = tmp_path / "map.svg"
    code, out, err = graph(capsys, BOOK, "--format", "svg", "-o", str(target), *ODDS)
    assert (code, out, err) == (0, "", "")
    root = ElementTree.fromstring(target.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = {element.text for element in root.iter("{http://www.w3.org/2000/svg}text")}
    for number in (1, 2, 3, 4, 5, 6, 7, 8, 30):
        assert f"§ {number}" in texts
    assert {"01-the-road.dd", "02-the-mill.dd", "⚠ dead end", "if SKILL >= 9"} <= texts


def test_svg_without_graphviz_says_so(capsys, monkeypatch, repo_root):
    monkeypatch.chdir(repo_root)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    code, out, err = graph(capsys, BOOK, "--format", "svg", "--odds-seconds", "0")
    assert (code, out) == (1, "")
    assert "Graphviz" in err and "--format dot, mermaid or json" in err


def test_from_keeps_what_a_paragraph_leads_to(capsys, monkeypatch, repo_root):
    monkeypatch.chdir(repo_root)
    _, out, _ = graph(capsys, BOOK, "--format", "json", "--from", "3", "--odds-seconds", "0")
    data = json.loads(out)
    assert sorted(node["number"] for node in data["nodes"]) == [3, 5, 6, 7, 30]
    assert all(e["source"] != 1 for e in data["edges"])


def test_around_keeps_the_neighbourhood_both_ways(capsys, monkeypatch, repo_root):
    monkeypatch.chdir(repo_root)
    args = ["--format", "json", "--around", "6", "--depth", "1", "--odds-seconds", "0"]
    _, out, _ = graph(capsys, BOOK, *args)
    data = json.loads(out)
    assert sorted(node["number"] for node in data["nodes"]) == [3, 5, 6, 7]
    assert data["files"] == ["01-the-road.dd", "02-the-mill.dd"]


def test_french_book_labels_speak_french(capsys, monkeypatch, repo_root):
    monkeypatch.chdir(repo_root)
    args = ["--format", "json", "--odds-seconds", "0"]
    _, out, _ = graph(capsys, "tests/books_extra/mistakes/unreachable-paragraph.dd", *args)
    data = json.loads(out)
    words = [f["words"] for node in data["nodes"] for f in node["findings"]]
    assert "inaccessible" in words


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--around", "99"], "paragraph 99 is not in the book"),
        (["--from", "1", "--around", "2"], "--from and --around cannot be used together"),
        (["--around", "1", "--depth", "-1"], "--depth must be 0 or more"),
    ],
)
def test_bad_arguments_exit_2(args, expected, capsys, monkeypatch, repo_root):
    monkeypatch.chdir(repo_root)
    code, out, err = graph(capsys, BOOK, "--odds-seconds", "0", *args)
    assert (code, out) == (2, "")
    assert expected in err


def test_a_book_that_does_not_load_gives_its_located_error(capsys, tmp_path):
    book = tmp_path / "broken.dd"
    book.write_text("---\ntitle: Broken\nruleset: df-classic\n---\n§ 1\n-> \n", encoding="utf-8")
    code, out, err = graph(capsys, str(book))
    assert (code, out) == (1, "")
    assert "broken.dd:6:" in err


def test_the_french_book_map_speaks_french(capsys, monkeypatch, repo_root, snapshot):
    monkeypatch.chdir(repo_root)
    code, out, err = graph(capsys, "tests/books_extra/map-fr", "--format", "mermaid", *ODDS)
    assert (code, err) == (0, "")
    assert "⚠ impasse" in out and "⚠ inaccessible" in out and "⚠ combat mortel" in out
    assert '|"si mot-code BORNE"|' in out and '|"victoire"|' in out
    assert out == snapshot


def test_lang_overrides_the_book_language(capsys, monkeypatch, repo_root):
    monkeypatch.chdir(repo_root)
    args = ["--format", "json", "--lang", "fr", "--odds-seconds", "0"]
    _, out, _ = graph(capsys, BOOK, *args)
    words = {f["words"] for node in json.loads(out)["nodes"] for f in node["findings"]}
    assert words == {"impasse", "inaccessible"}


def test_a_bundled_book_by_its_name(capsys):
    code, out, err = graph(capsys, "first-steps", "--format", "json", "--odds-seconds", "0")
    assert (code, err) == (0, "")
    assert json.loads(out)["title"] == "First Steps"


def test_no_such_book_is_a_usage_error(capsys, tmp_path):
    code, out, err = graph(capsys, str(tmp_path / "nowhere"))
    assert (code, out) == (2, "")
    assert "no book at" in err
