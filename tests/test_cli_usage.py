"""Usage errors (argparse's) in the language of the command: --lang, else the book's, else
the environment's; argparse is left as it was after parsing."""

from __future__ import annotations

import argparse

import pytest
from dedale.cli import main
from dedale.cli_usage import environment_language, usage_language

FRENCH_BOOK = "---\ntitre: T\nlangue: fr\njeu-de-règles: df-classic\n---\n§ 1\n> victoire\n"


@pytest.fixture
def french_book(tmp_path):
    path = tmp_path / "livre.dd"
    path.write_text(FRENCH_BOOK, encoding="utf-8")
    return str(path)


def test_a_french_book_gets_its_usage_error_in_french(french_book, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit) as stopped:
        main(["validate", french_book, "--format", "xml"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert (
        "dedale validate\u00a0: erreur\u00a0: argument --format\u00a0: choix invalide\u00a0: 'xml'"
        in err
    )
    with pytest.raises(SystemExit):  # argparse speaks English again afterwards
        argparse.ArgumentParser(prog="x").parse_args(["--nope"])
    assert "x: error: unrecognized arguments: --nope" in capsys.readouterr().err


def test_lang_wins_over_the_book(french_book, capsys):
    with pytest.raises(SystemExit):
        main(["validate", french_book, "--lang", "en", "--runs", "abc"])
    assert "argument --runs: invalid int value: 'abc'" in capsys.readouterr().err


def test_without_a_book_the_environment_decides(capsys, monkeypatch):
    monkeypatch.setenv("LC_ALL", "fr_FR.UTF-8")
    with pytest.raises(SystemExit):
        main(["solve"])
    assert "arguments obligatoires manquants\u00a0: book" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("environ", "lang"),
    [({"LANG": "fr_CA.UTF-8"}, "fr"), ({"LANG": "en_GB"}, "en"), ({"LANG": "C.UTF-8"}, None),
     ({}, None), ({"LC_ALL": "de_DE", "LANG": "fr_FR"}, "en"), ({"LANG": "POSIX"}, None)],
)  # fmt: skip
def test_environment_language(environ, lang):
    assert environment_language(environ) == lang


def test_usage_language_reads_lang_then_the_book(french_book):
    assert usage_language(["play", french_book], {}) == "fr"
    assert usage_language(["play", french_book, "--lang=en"], {}) == "en"
    assert usage_language(["play", "--lang", "xx"], {"LANG": "fr_FR"}) is None
