"""The Book object: loading the bundled first book, labels, resolve, stat ids, errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from dedale import ast
from dedale.errors import BookLoadError, UsageError
from dedale.language import load_book
from dedale.span import Span

ROOT = Path(__file__).resolve().parent.parent
FIRST_STEPS = ROOT / "books" / "first-steps"


@pytest.fixture(scope="module")
def book():
    return load_book(FIRST_STEPS)


def test_first_steps_loads(book):
    assert book.meta.title == "First Steps"
    assert book.meta.language == "en"
    assert book.ruleset.name == "df-classic"
    assert book.start == 1
    assert list(book.paragraphs) == list(range(1, 16))
    assert book.files == [FIRST_STEPS / "01-first-steps.dd"]
    assert book.meta.creation.reroll == "once"


def test_first_steps_has_every_basic_construct(book):
    kinds = {type(s).__name__ for p in book.paragraphs.values() for s in p.body}
    assert {"Fight", "Test", "GainItem", "SetCodeword", "Choice", "Ending"} <= kinds
    endings = {
        s.kind for p in book.paragraphs.values() for s in p.body if isinstance(s, ast.Ending)
    }
    assert endings == {"death", "victory"}
    assert any(
        isinstance(s, ast.Choice) and s.condition is not None
        for p in book.paragraphs.values()
        for s in p.body
    )


def test_labels_and_resolve(book):
    assert book.labels["start"] == 1
    assert book.label_number("Tower Door") == 4
    ref = ast.ParagraphRef(span=Span.unknown(), label="tower-door")
    assert book.resolve(ref) == 4
    assert book.resolve(ast.ParagraphRef(span=Span.unknown(), number=15)) == 15
    assert book.resolve(ast.ParagraphRef(span=Span.unknown(), number=999)) is None


def test_stat_ids_delegate_to_the_ruleset(book):
    assert book.stat_id("ENDURANCE") == "STAMINA"
    assert book.stat_id("habileté") == "SKILL"
    assert book.stat_id("or") == "gold"
    assert book.stat_id("Rope") is None


def test_fingerprint_is_stable_and_content_based(book, tmp_path):
    assert book.fingerprint == load_book(FIRST_STEPS).fingerprint
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("book.yaml", "01-first-steps.dd"):
        (copy / name).write_bytes((FIRST_STEPS / name).read_bytes())
    assert load_book(copy).fingerprint != "" and len(book.fingerprint) == 64
    (copy / "01-first-steps.dd").write_text(
        (FIRST_STEPS / "01-first-steps.dd").read_text("utf-8") + "\n// more\n", "utf-8"
    )
    assert load_book(copy).fingerprint != load_book(FIRST_STEPS).fingerprint


def test_single_file_book(tmp_path):
    path = tmp_path / "tiny.dd"
    path.write_text("---\ntitle: Tiny\nlanguage: fr\n---\n§ 1\nFin.\n> victoire\n", "utf-8")
    book = load_book(path)
    assert book.meta.title == "Tiny" and book.meta.language == "fr"
    assert book.paragraphs[1].span.line == 5


def test_files_listed_in_book_yaml_and_escaping_paths(tmp_path):
    (tmp_path / "book.yaml").write_text(
        "title: T\nfiles: [b.dd, ../outside.dd, missing.dd]\n", "utf-8"
    )
    (tmp_path / "b.dd").write_text("§ 1\n> death\n", "utf-8")
    (tmp_path.parent / "outside.dd").write_text("§ 2\n> death\n", "utf-8")
    with pytest.raises(BookLoadError) as caught:
        load_book(tmp_path)
    messages = [e.message for e in caught.value.errors]
    assert any("outside the book folder" in m for m in messages)
    assert any("`missing.dd` not found" in m for m in messages)


def test_errors_from_several_files_are_all_collected(tmp_path):
    (tmp_path / "book.yaml").write_text("title: T\nstart: 1\n", "utf-8")
    (tmp_path / "a.dd").write_text("§ 1\n> lose 2 STAMNA\n-> 2 go\n", "utf-8")
    (tmp_path / "b.dd").write_text("§ 2\n> figth\n§ 1\n> death\n", "utf-8")
    with pytest.raises(BookLoadError) as caught:
        load_book(tmp_path)
    rendered = caught.value.render()
    assert "a.dd:2:3: unknown stat or counter `STAMNA`" in rendered
    assert "b.dd:2:3: unknown directive `figth`" in rendered
    assert "paragraph 1 is already defined at" in rendered and "a.dd:1:1" in rendered


def test_ruleset_errors_are_collected(tmp_path):
    (tmp_path / "book.yaml").write_text("title: T\nruleset: df-clasic\n", "utf-8")
    (tmp_path / "a.dd").write_text("§ 1\n> death\n", "utf-8")
    with pytest.raises(BookLoadError) as caught:
        load_book(tmp_path)
    (error,) = caught.value.errors
    assert error.span.line == 2 and "df-classic" in (error.hint or "")


@pytest.mark.parametrize("make", ["missing", "empty_dir", "other_file"])
def test_not_a_book_is_a_usage_error(tmp_path, make):
    if make == "missing":
        path = tmp_path / "nope"
    elif make == "empty_dir":
        path = tmp_path
    else:
        path = tmp_path / "notes.txt"
        path.write_text("hello\n", "utf-8")
    with pytest.raises(UsageError):
        load_book(path)


def test_validate_command_exit_codes(tmp_path):
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "dedale", "validate", *map(str, args)],
            capture_output=True,
            text=True,
        )

    ok = run(FIRST_STEPS)
    assert ok.returncode == 0, ok.stderr
    assert "books/first-steps" in ok.stdout and "│         15 │      0 │" in ok.stdout
    bad = tmp_path / "bad.dd"
    bad.write_text("---\ntitle: Bad\n---\n§ 1\n> figth\n", "utf-8")
    failed = run(bad, "--lang", "en")  # no language: the book is French
    assert failed.returncode == 1
    assert "bad.dd:5:3: error E001 unknown directive `figth`" in failed.stdout
    assert "^^^^^" in failed.stdout and "did you mean `fight`?" in failed.stdout
    assert "Traceback" not in failed.stdout + failed.stderr
    assert run(tmp_path / "nothing-here").returncode == 2


def test_validate_never_imports_textual():
    code = (
        "import sys; from dedale.cli import main; "
        f"main(['validate', {str(FIRST_STEPS)!r}]); "
        "assert 'textual' not in sys.modules, 'textual imported'"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
