"""The table "Typical mistakes and the finding they produce" of docs/validator.md checks itself.

Each row links a tiny book of tests/books_extra/mistakes/ and names one finding code; the
validator, run on that book, must report that code at the line the mistake is on. In each
book a comment marks that line: `// ↓ E010` (`# ↓ E003` in the front matter) stands just
above it. The message column is for the reader (it follows the book's language once the
messages are translated) and is not compared. Every book of the folder has its row, and
every row its book.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from dedale.validator import validate_path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "validator.md"
BOOKS = ROOT / "tests" / "books_extra" / "mistakes"
SECTION = "## Typical mistakes and the finding they produce"
FRENCH = ROOT / "docs" / "fr" / "erreurs-typiques.md"
FRENCH_HEADING = "# Les erreurs typiques, et ce que `dedale validate` en dit"


_ROW = re.compile(
    r"^\|\s*\[(?P<mistake>[^\]]+)\]\((?:\.\./)+tests/books_extra/mistakes/(?P<book>[\w-]+)\.dd\)"
    r"\s*\|(?P<wrote>.*)\|\s*\[?`(?P<code>[EWI]\d{3})`"
)


@dataclass(frozen=True)
class Row:
    """One line of the table: the book and the finding code it must produce."""

    book: str
    code: str
    line: int


def table_rows(doc: Path = DOC, heading: str = SECTION) -> list[Row]:
    """The rows of the mistakes table under ``heading`` of ``doc``, in order."""
    lines = doc.read_text("utf-8").splitlines()
    assert heading in lines, f"{doc.name} has no heading {heading!r}"
    start = lines.index(heading)
    rows: list[Row] = []
    for number, line in enumerate(lines[start + 1 :], start + 2):
        if line.startswith("## "):
            break
        if not line.startswith("| ["):
            continue
        match = _ROW.match(line)
        assert match, f"{doc.name}:{number}: a table row the test cannot read: {line}"
        rows.append(Row(match["book"], match["code"], number))
    return rows


ROWS = table_rows()


def test_table_and_books_match() -> None:
    listed = [row.book for row in ROWS]
    on_disk = sorted(path.stem for path in BOOKS.glob("*.dd"))
    assert len(listed) == len(set(listed)), "a book is listed twice in the table"
    assert sorted(listed) == on_disk, (
        f"books without a row: {sorted(set(on_disk) - set(listed))}; "
        f"rows without a book: {sorted(set(listed) - set(on_disk))}"
    )
    assert 15 <= len(ROWS) <= 25


def test_french_table_has_the_same_rows() -> None:
    """docs/fr/erreurs-typiques.md lists the same books with the same codes, in order."""
    english = [(row.book, row.code) for row in ROWS]
    french = [(row.book, row.code) for row in table_rows(FRENCH, FRENCH_HEADING)]
    assert french == english, (
        "\n".join(f"{a} | {b}" for a, b in zip(english, french, strict=False) if a != b)
        or f"{len(english)} English rows, {len(french)} French rows"
    )


@pytest.mark.parametrize("row", [pytest.param(row, id=row.book) for row in ROWS])
def test_mistake_produces_its_finding(row: Row) -> None:
    path = BOOKS / f"{row.book}.dd"
    report = validate_path(path, runs=20, seed=0)
    codes = sorted({item.code for item in report.findings})
    assert row.code in codes, (
        f"docs/validator.md:{row.line}: {row.book}.dd should produce {row.code}; "
        f"the validator reports {codes or 'nothing'}"
    )
    marked = _marked_line(path, row.code)
    lines = sorted({f.span.line for f in report.findings if f.code == row.code and f.span})
    assert marked in lines, (
        f"{row.book}.dd: {row.code} should point at line {marked} (the line under the "
        f"`↓ {row.code}` comment); it points at {lines or 'no line'}"
    )


def _marked_line(path: Path, code: str) -> int:
    """The line just below the book's `// ↓ CODE` (or `# ↓ CODE`) comment."""
    for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if re.fullmatch(rf"\s*(//|#)\s*↓\s*{code}\s*", line):
            return number + 1
    raise AssertionError(f"{path.name} has no `// ↓ {code}` comment above its mistake")


def test_the_command_reports_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    """`dedale validate BOOK... --format json`, as an author runs it on all the books at once,
    reports the same codes at the same lines, and exits with 1 (most rows are errors)."""
    from dedale.validator.cli import main

    paths = [str(BOOKS / f"{row.book}.dd") for row in ROWS]
    assert main([*paths, "--runs", "20", "--seed", "0", "--format", "json"]) == 1
    reports = json.loads(capsys.readouterr().out)["books"]
    assert len(reports) == len(ROWS)
    wrong = []
    for row, report in zip(ROWS, reports, strict=True):
        lines = {f["line"] for f in report["findings"] if f["code"] == row.code}
        if _marked_line(BOOKS / f"{row.book}.dd", row.code) not in lines:
            wrong.append(f"{row.book}: {row.code} not at its line ({sorted(lines)})")
    assert not wrong, "\n".join(wrong)
