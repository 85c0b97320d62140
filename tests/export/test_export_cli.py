"""``dedale export``: the command end to end (formats, default names, --shuffle and --map,
messages in the book's language, located errors, atomic writes)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from dedale.cli import main
from dedale.export.shuffle_pins import default_pins
from dedale.language import load_book

ROOT = Path(__file__).resolve().parents[2]
SHUFFLE_BOOK = ROOT / "tests" / "books_extra" / "shuffle"
pytest.importorskip("typst", reason="the export extra's typst sets the PDF")
pypdf = pytest.importorskip("pypdf", reason="pypdf (the test extra) reads the PDF back")


def run(capsys, *words: str) -> tuple[int, str, str]:
    code = main(["export", *map(str, words)])
    out, err = capsys.readouterr()
    return code, out, err


def pdf_text(path: Path) -> str:
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(path).pages)
    return text.replace("\xad", "-")  # pypdf reads Typst's hyphen as a soft one


def test_a_french_book_to_pdf_says_so_in_french(tmp_path, capsys):
    out = tmp_path / "tour.pdf"
    code, said, err = run(capsys, SHUFFLE_BOOK, "--format", "pdf", "-o", out)
    assert (code, err) == (0, "")
    assert said == f"écrit\u00a0: {out}\n"
    text = pdf_text(out)
    assert text.startswith("La Tour du Sablier\nLes auteurs de Dédale")
    assert "GARDIEN DE SABLE" in text and "HABILETÉ 7" in text
    assert (out.stat().st_mode & 0o777) != 0o600  # an ordinary file, not mkstemp's


def test_the_default_output_is_named_after_the_book(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for fmt in ("pdf", "epub"):
        code, said, _ = run(capsys, ROOT / "books" / "greymane", "--format", fmt)
        assert code == 0 and said == f"wrote greymane.{fmt}\n"
    assert (tmp_path / "greymane.pdf").read_bytes().startswith(b"%PDF-")
    assert (tmp_path / "greymane.epub").read_bytes().startswith(b"PK")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["greymane.epub", "greymane.pdf"]


def test_shuffle_writes_the_map_and_renumbers_the_book(tmp_path, capsys, snapshot):
    out, mapped = tmp_path / "tour.pdf", tmp_path / "map.json"
    words = (SHUFFLE_BOOK, "-o", out, "--shuffle", "--seed", "4", "--map", mapped)
    code, said, err = run(capsys, *words)
    assert code == 0
    mapping = {int(old): new for old, new in json.loads(mapped.read_text()).items()}
    book = load_book(SHUFFLE_BOOK)
    assert sorted(mapping) == sorted(mapping.values()) == sorted(book.paragraphs)
    assert all(mapping[n] == n for n in default_pins(book))
    assert mapping != {n: n for n in mapping}
    first_map = mapped.read_text()
    assert run(capsys, *words)[0] == 0 and mapped.read_text() == first_map  # same seed
    assert said == f"écrit\u00a0: {out}\n"
    assert {"map": mapping, "stderr": err} == snapshot
    # the start (pinned) now leads to the new numbers of 2 and 3
    text = pdf_text(out)
    start = text[text.index("Le vent du désert") :]
    start = start[: start.index("\n2\n") if "\n2\n" in start else 600]
    for old in (2, 3):
        assert f"rendez-vous au {mapping[old]}" in " ".join(start.split())
    # the marked reference {§ 2} of paragraph 10 names 2's new number
    flat = " ".join(text.split())
    assert f"(voyez le {mapping[2]})" in flat


def test_html_export_is_renumbered_too(tmp_path, capsys):
    out, mapped = tmp_path / "tour.html", tmp_path / "map.json"
    words = (SHUFFLE_BOOK, "--format", "html", "-o", out, "--shuffle", "--map", mapped)
    assert run(capsys, *words)[0] == 0
    page = out.read_text("utf-8")
    mapping = {int(k): v for k, v in json.loads(mapped.read_text()).items()}
    assert page.count('id="p') == 12
    assert f'href="#p{mapping[2]}"' in page


def test_the_test_book_validates_strictly(capsys):
    assert main(["validate", "--strict", "--runs", "50", str(SHUFFLE_BOOK)]) == 0
    capsys.readouterr()


def test_a_book_that_does_not_load_is_a_located_error(tmp_path, capsys):
    (tmp_path / "book.yaml").write_text("titre: Livre\nlangue: fr\n")
    (tmp_path / "a.dd").write_text("§ 1\nUne porte.\n-> 2 Entrer\n\n§ 1\nEncore.\n")
    code, said, err = run(capsys, tmp_path, "-o", tmp_path / "x.pdf")
    assert code == 1 and said == ""
    assert "a.dd:5:1: " in err and "conseil" in err  # in the book's language
    assert not (tmp_path / "x.pdf").exists()


def test_a_reference_to_a_missing_paragraph_is_printed_without_a_link(tmp_path, capsys):
    (tmp_path / "book.yaml").write_text("titre: Livre\nlangue: fr\n")
    (tmp_path / "a.dd").write_text("§ 1\nUne porte.\n-> 2 Entrer\n")
    code, _, _ = run(capsys, tmp_path, "-o", tmp_path / "x.pdf")
    assert code == 0
    assert "rendez-vous au 2" in pdf_text(tmp_path / "x.pdf")


def test_a_pinned_number_the_book_lacks_is_located_in_book_yaml(tmp_path, capsys):
    (tmp_path / "book.yaml").write_text("title: B\nlanguage: en\npinned: [1, 99]\n")
    (tmp_path / "a.dd").write_text("§ 1\nA door.\n-> 2 Go\n\n§ 2\n> victory\n")
    code, _, err = run(capsys, tmp_path, "--shuffle", "-o", tmp_path / "x.epub")
    assert code == 1
    assert "book.yaml:3:9: pinned paragraph 99 does not exist" in err


def test_usage_errors(tmp_path, capsys):
    code, _, err = run(capsys, SHUFFLE_BOOK, "--map", tmp_path / "m.json")
    assert code == 2 and "--seed et --map demandent --shuffle" in err  # the book's language
    code, _, err = run(capsys, ROOT / "books" / "greymane", "-o", tmp_path / "no" / "x.pdf")
    assert code == 2 and "cannot write" in err and "No such file" in err


def test_a_failed_export_leaves_the_old_file_whole(tmp_path, capsys, monkeypatch):
    from dedale.export import pdf

    out = tmp_path / "tour.pdf"
    out.write_bytes(b"old")

    def broken(document):
        raise pdf.ExportError("Typst could not set the book: test")

    monkeypatch.setattr(pdf, "render_pdf", broken)
    code, _, err = run(capsys, SHUFFLE_BOOK, "-o", out)
    assert code == 1 and "Typst could not set the book" in err
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["tour.pdf"]


def test_the_epub_of_an_english_book_has_its_language(tmp_path, capsys):
    from ebooklib import epub

    out = tmp_path / "g.epub"
    assert run(capsys, ROOT / "books" / "greymane", "--format", "epub", "-o", out)[0] == 0
    read = epub.read_epub(str(out), {"ignore_ncx": True})
    assert read.get_metadata("DC", "language") == [("en", {})]
    assert io.BytesIO(out.read_bytes()).read(2) == b"PK"


def test_export_imports_neither_textual_nor_another_command(tmp_path):
    import subprocess
    import sys

    code = (
        "import sys, contextlib, io\n"
        "from dedale.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['export', {str(SHUFFLE_BOOK)!r}, '--format', 'epub', '-o',"
        f" {str(tmp_path / 'x.epub')!r}]) == 0\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    modules = set(done.stdout.split())
    assert {m for m in modules if m.startswith("dedale.commands.")} <= {
        "dedale.commands.export",
        "dedale.commands.books",
    }
    assert not any(m == "textual" or m.startswith("textual.") for m in modules)
