"""`dedale validate` answers a French book in French and an English book in English.

The two fixture books (``books/fr-mistakes``, ``books/en-mistakes``) are the same book with
the same mistakes (a missing paragraph, an item never given, a codeword never tested, an
unreachable dead end), written with French and with English keywords. The transcripts are
snapshots, reviewed by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dedale.errors import DedaleError
from dedale.i18n import tr
from dedale.validator.cli import main
from dedale.validator.report.language import declared_language, percent

BOOKS = Path(__file__).resolve().parent / "books"


@pytest.fixture
def books(monkeypatch) -> Path:
    monkeypatch.chdir(BOOKS)
    return BOOKS


def validate(capsys, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--runs", "20", "--seed", "0"])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_french_book_is_answered_in_french(books, capsys, snapshot):
    code, out, _ = validate(capsys, "fr-mistakes")
    assert code == 1
    assert "erreur E010 un choix mène au paragraphe 40, qui n'existe pas" in out
    assert "conseil\u00a0: ajoutez «\u00a0> prenez Clé de fer\u00a0»" in out  # French keywords
    assert "Bilan" in out and "Summary" not in out
    assert out == snapshot


def test_the_same_book_in_english_is_answered_in_english(books, capsys, snapshot):
    code, out, _ = validate(capsys, "en-mistakes")
    assert code == 1
    assert "error E010 choice leads to paragraph 40, which does not exist" in out
    assert "hint: add '> take Iron Key' to a paragraph on the way here" in out
    assert "Summary" in out and "Bilan" not in out
    assert out == snapshot


def test_lang_overrides_the_book_language(books, capsys):
    _, english, _ = validate(capsys, "fr-mistakes", "--lang", "en")
    assert "error E023 item 'Clé de fer' is needed here but no paragraph gives it" in english
    _, french, _ = validate(capsys, "en-mistakes", "--lang", "fr")
    assert "erreur E023 l'objet «\u00a0Iron Key\u00a0» est exigé ici" in french


@pytest.mark.parametrize("fmt", ["json", "github", "sarif"])
def test_every_format_speaks_the_book_language(books, capsys, fmt):
    _, out, _ = validate(capsys, "fr-mistakes", "--format", fmt)
    assert "un choix mène au paragraphe 40, qui n'existe pas" in out
    assert "écrivez ce paragraphe, ou corrigez le numéro" in out
    assert "write that paragraph" not in out and "hint:" not in out
    if fmt == "json":
        assert json.loads(out)["books"][0]["language"] == "fr"
    if fmt == "sarif":  # the rules' titles too
        rules = json.loads(out)["runs"][0]["tool"]["driver"]["rules"]
        titles = {rule["id"]: rule["shortDescription"]["text"] for rule in rules}
        assert titles["E010"] == "Une destination ne désigne aucun paragraphe"


def test_a_book_that_does_not_load_is_answered_in_its_declared_language(books, capsys):
    code, out, _ = validate(capsys, "fr-broken")
    assert code == 1
    assert "fr-broken/cassé.dd:5:1: erreur E011" in out
    assert "conseil\u00a0:" in out and "Bilan" in out
    assert declared_language(BOOKS / "fr-broken") == "fr"
    assert declared_language(BOOKS / "en-mistakes") == "en"
    assert declared_language(BOOKS / "no-such-book") == "fr"  # the loader's default


def test_usage_errors_follow_lang(books, capsys):
    code = main(["no-such-book", "--lang", "fr"])
    assert code == 2
    assert "no-such-book\u00a0: ce fichier ou ce dossier n'existe pas" in capsys.readouterr().err


def test_an_error_renders_in_the_language_asked():
    error = DedaleError(tr("list only paragraphs of the book"), hint=tr("give the loop a way out"))
    assert error.render() == "list only paragraphs of the book\n  hint: give the loop a way out"
    assert error.render(lang="fr") == (
        "ne listez que des paragraphes du livre\n  conseil\u00a0: donnez une issue à la boucle"
    )
    assert DedaleError("plain text").render(lang="fr") == "plain text"


def test_numbers_are_written_the_french_way():
    assert percent(0.125, "fr") == "12,5\u202f%"
    assert percent(0.125, "en") == "12.5%"


def test_numbers_in_findings_are_written_the_french_way(monkeypatch, capsys):
    monkeypatch.chdir(BOOKS.parent.parent / "validator" / "books")
    main(["W030-deadly-fight", "--lang", "fr", "--runs", "0"])
    french = capsys.readouterr().out
    assert "le héros médian gagne le combat contre TROLL dans 0,1\u202f% des cas" in french
    main(["W030-deadly-fight", "--runs", "0"])
    assert "only 0.1% of the time (threshold 5%)" in capsys.readouterr().out
