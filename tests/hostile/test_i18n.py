"""Hostile input meets the language of the report: a broken or strange book.yaml never hangs
the sniffing of its `language:` line, never crashes, and the report still comes out."""

from __future__ import annotations

import os

import pytest
from dedale.validator.cli import main
from dedale.validator.report.language import declared_language

PARAGRAPHS = "§ 1\nUn couloir.\n-> 2 Avancer\n\n§ 1\nEncore.\n> victoire\n"


def _book(tmp_path, yaml_bytes: bytes | None):
    folder = tmp_path / "livre"
    folder.mkdir()
    if yaml_bytes is not None:
        (folder / "book.yaml").write_bytes(yaml_bytes)
    (folder / "a.dd").write_text(PARAGRAPHS, encoding="utf-8")
    return folder


@pytest.mark.parametrize(
    "content, lang",
    [
        (b"langue: fr\nruleset: [\n", "fr"),  # broken YAML: the line is still read
        (b"language: en\n\x00\xff\xfe garbage", "en"),  # NUL and bad UTF-8
        (b"\xef\xbb\xbflanguage: 'en'\n", "en"),  # BOM, quotes
        (b"language: xx\n", "fr"),  # unknown: the loader's default
        (b"title: " + b"A" * 2_000_000 + b"\nlanguage: en\n", "fr"),  # past the bytes read
        (b"language:\n  - en\n", "fr"),
    ],
)
def test_the_language_line_of_any_book_yaml(tmp_path, content, lang):
    assert declared_language(_book(tmp_path, content)) == lang


def test_a_fifo_or_a_folder_named_book_yaml_does_not_hang(tmp_path, capsys):
    folder = _book(tmp_path, None)
    os.mkfifo(folder / "book.yaml")
    assert declared_language(folder) == "fr"
    other = tmp_path / "other"
    (other / "book.yaml").mkdir(parents=True)
    assert declared_language(other) == "fr"


def test_a_link_out_of_the_book_is_not_read(tmp_path):
    outside = tmp_path / "secret.yaml"
    outside.write_text("language: en\n", encoding="utf-8")
    folder = _book(tmp_path, None)
    (folder / "book.yaml").symlink_to(outside)
    assert declared_language(folder) == "fr"


def test_a_broken_french_book_gets_a_french_report(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _book(tmp_path, b"langue: fr\nruleset: df-classic\n")
    assert main(["livre", "--runs", "0"]) == 1
    out = capsys.readouterr().out
    assert "livre/a.dd:5:1: erreur E011" in out and "Bilan" in out and "Traceback" not in out
