"""``dedale COMMAND`` imports only that command's module, and ``validate --runs 0`` neither
the interpreter nor Textual (issue 14.11: the start-up floor is imports)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from dedale.cli import SUBCOMMANDS, build_parser, chosen_command

ROOT = Path(__file__).resolve().parents[1]


def test_the_command_is_the_first_word_that_is_not_an_option():
    assert chosen_command(["validate", "--runs", "0", "book"]) == "validate"
    assert chosen_command(["--version"]) is None
    assert chosen_command(["nonsense", "validate"]) is None
    assert chosen_command([]) is None


def test_the_full_parser_still_knows_every_command_and_its_options():
    parser = build_parser()
    for name in SUBCOMMANDS:
        assert parser.parse_args([name, *_minimal(name)]).command == name


def _minimal(name: str) -> list[str]:
    return {
        "validate": ["book"],
        "odds": ["--hero", "10", "20", "--enemy", "8", "10"],
        "replay": ["save.json"],
        "new": ["folder"],
        "graph": ["book"],
        "test": ["book"],
        "solve": ["book"],
        "export": ["book"],
    }.get(name, [])


def _modules_after(code: str) -> set[str]:
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(done.stdout.split())


def test_validate_imports_no_other_command_nor_the_interpreter(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (book / "book.yaml").write_text("title: T\nlanguage: en\nruleset: df-classic\nstart: 1\n")
    (book / "a.dd").write_text("§ 1\nA door.\n-> 2 Open it\n\n§ 2\n> victory\n")
    code = (
        "from dedale.cli import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['validate', '--runs', '0', {str(book)!r}])"
    )
    modules = _modules_after(code)
    commands = {m for m in modules if m.startswith("dedale.commands.")}
    assert commands == {"dedale.commands.validate"}
    assert "dedale.game.interpreter" not in modules
    assert not any(m == "textual" or m.startswith("textual.") for m in modules)


def test_validating_a_sample_book_with_fights_imports_no_interpreter():
    """The fight plans read conditions (viper-pit's rules under an enemy) through
    dedale.game.conditions: the game package itself imports the interpreter only when it is
    asked for (``from dedale.game import Game``)."""
    book = ROOT / "tests" / "books_extra" / "solve" / "viper-pit"  # `(if not Iron Mace)`...
    code = (
        "from dedale.cli import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['validate', '--runs', '0', '--format', 'json', {str(book)!r}])"
    )
    modules = _modules_after(code)
    assert "dedale.game.conditions" in modules  # the fight plans did read a condition
    assert "dedale.game.interpreter" not in modules


def test_the_json_report_imports_no_rich(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (book / "book.yaml").write_text("title: T\nlanguage: en\nruleset: df-classic\nstart: 1\n")
    (book / "a.dd").write_text("§ 1\n> fight ORC SKILL 6 STAMINA 5\n> win -> 2\n\n§ 2\n> victory\n")
    code = (
        "from dedale.cli import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['validate', '--runs', '0', '--format', 'json', {str(book)!r}])"
    )
    modules = _modules_after(code)
    assert "dedale.validator.report.fight_path_report" in modules  # the path was reported
    assert not any(m == "rich" or m.startswith("rich.") for m in modules)
    assert "dedale.events" not in modules  # the fight's attack shift needs no fight code
