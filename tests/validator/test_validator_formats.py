"""Snapshots of each output format (reviewed by hand), and the format's own invariants."""

from __future__ import annotations

import io
import json

import pytest
from dedale.validator import validate_path
from dedale.validator.findings import CHECKS
from dedale.validator.report import FORMATS, renderer
from dedale.validator.report.json import SCHEMA

BOOKS = (
    "E010-missing-paragraph",
    "W030-deadly-fight",
    "W031-d20-fight",  # estimated odds (a simulation of the real fight code)
    "E001-syntax-error",
)


def rendered(fmt: str, exit_code: int = 1) -> str:
    reports = [validate_path(name, runs=0) for name in BOOKS]
    out = io.StringIO()
    renderer(fmt)(reports, out, exit_code)
    return out.getvalue()


@pytest.mark.parametrize("fmt", FORMATS)
def test_format_snapshot(fmt, books, snapshot):
    assert rendered(fmt) == snapshot


def test_text_shows_source_line_and_caret(books):
    text = rendered("text")
    assert "E010-missing-paragraph/book.dd:5:4: error E010" in text
    assert "    -> 99 Jump into the moat\n       ^" in text
    assert "Summary" in text and "Fight odds" in text


def test_json_schema(books):
    data = json.loads(rendered("json"))
    assert data["schema"] == SCHEMA
    assert set(data) == {"schema", "dedale", "books", "summary"}
    book = data["books"][0]
    assert set(book) == {
        "path", "title", "language", "paragraphs", "errors", "warnings", "infos",
        "silenced", "findings", "fights", "playthroughs", "fight_path",
    }  # fmt: skip
    finding = book["findings"][0]
    assert set(finding) == {
        "code", "severity", "name", "message", "file", "line", "column", "end_line",
        "end_column", "paragraph", "hint",
    }  # fmt: skip
    assert data["summary"]["exit_code"] == 1
    odds = data["books"][1]["fights"][0]["odds"]
    assert {(o["hero"], o["luck"]) for o in odds} == {
        (hero, luck) for hero in ("weakest", "median", "strongest") for luck in ("none", "best")
    }


def test_github_commands(books):
    lines = rendered("github").splitlines()
    assert lines[0].startswith("::error file=E010-missing-paragraph/book.dd,line=5,col=4,")
    assert lines[-1].startswith("::error file=E001-syntax-error/book.dd,line=40,col=3,")
    assert any(line.startswith("::warning file=W030-deadly-fight/book.dd") for line in lines)
    assert all("\n" not in line and line.startswith("::") for line in lines)


def test_sarif_is_2_1_0_with_every_rule(books):
    data = json.loads(rendered("sarif"))
    assert data["version"] == "2.1.0"
    (run,) = data["runs"]
    assert [rule["id"] for rule in run["tool"]["driver"]["rules"]] == list(CHECKS)
    levels = {result["ruleId"]: result["level"] for result in run["results"]}
    assert levels == {
        "E001": "error",
        "E010": "error",
        "W030": "warning",
        "W031": "warning",
        "I115": "note",
    }  # (the d20 dragon's 10d10: estimated, saying why)
    (estimated,) = [result for result in run["results"] if result["ruleId"] == "W031"]
    properties = estimated["properties"]
    assert properties["estimate"] is True and properties["samples"] == 150
    assert 0 < properties["margin"] < 0.03 and properties["paragraph"] == 2
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] >= 1 and region["startColumn"] >= 1
