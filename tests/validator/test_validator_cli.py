"""``dedale validate`` as a command: exit codes, formats, and no Textual import."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from dedale.validator.cli import main


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["clean", "--runs", "50"], 0),
        (["E010-missing-paragraph", "--runs", "0"], 1),
        (["W013-unreachable-paragraph", "--runs", "0"], 0),
        (["W013-unreachable-paragraph", "--runs", "0", "--strict"], 1),
        (["I025-item-never-used", "--runs", "0", "--strict"], 0),
        (["clean", "E001-syntax-error", "--runs", "0"], 1),
        (["no-such-book"], 2),
        (["clean", "--runs", "-1"], 2),
    ],
)
def test_exit_codes(args, code, books, capsys):
    assert main(args) == code


def test_usage_error_exits_2(books, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["clean", "--format", "xml"])
    assert exit_.value.code == 2


def test_json_on_stdout(books, capsys):
    assert main(["E010-missing-paragraph", "--runs", "0", "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["books"][0]["findings"][0]["code"] == "E010"


def test_same_seed_same_report(books, capsys):
    main(["clean", "--runs", "30", "--seed", "7", "--format", "json"])
    first = capsys.readouterr().out
    main(["clean", "--runs", "30", "--seed", "7", "--format", "json"])
    assert capsys.readouterr().out == first


def test_validator_never_imports_textual(books):
    code = (
        "import sys\n"
        "from dedale.validator.cli import main\n"
        "status = main(['clean', 'W030-deadly-fight', '--runs', '20'])\n"
        "assert 'textual' not in sys.modules, 'the validator imported textual'\n"
        "print('status', status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=books
    )
    assert done.returncode == 0, done.stderr
    assert "status 0" in done.stdout


def test_building_the_parser_stays_cheap():
    code = (
        "import sys, argparse\n"
        "from dedale.validator import cli\n"
        "cli.add_arguments(argparse.ArgumentParser())\n"
        "heavy = [m for m in ('dedale.validator.checker', 'lark', 'rich') if m in sys.modules]\n"
        "print(heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
