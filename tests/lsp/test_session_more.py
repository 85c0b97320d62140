"""The server on a French book, on save, on book.yaml and on broken books (no crash)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from dedale import limits
from lsprotocol import types

from tests.lsp.client import Client, doc, position

ROOT = Path(__file__).parents[2]
PUITS = ROOT / "books" / "le-puits-des-ombres"
SALT = ROOT / "tests" / "books_extra" / "lsp"


@pytest.fixture
def puits(tmp_path: Path) -> Path:
    folder = tmp_path / "puits"
    shutil.copytree(PUITS, folder)
    return folder


@pytest.fixture
def salt(tmp_path: Path) -> Path:
    folder = tmp_path / "salt"
    shutil.copytree(SALT, folder)
    return folder


def _complete(client: Client, document: str, line: int, column: int) -> list[str]:
    items = client.request(
        "textDocument/completion",
        types.CompletionParams(text_document=doc(document), position=position(line, column)),
        list[types.CompletionItem],
    )
    return [item.label for item in items]


def test_french_book_speaks_french_and_fixes_a_misspelt_keyword(
    client: Client, puits: Path
) -> None:
    path = puits / "01-vaubrune.dd"
    text = path.read_text()
    document = client.open(path, text)
    assert client.wait_diagnostics(document) == []
    lines = text.split("\n")
    gain = next(n for n, line in enumerate(lines) if line.startswith("> gagnez 12 or"))
    words = _complete(client, document, gain, 2)
    assert words.index("combat") < words.index("fight")  # the book's language first
    assert "Épée d'argent" in _complete(client, document, gain, 14)  # items of the book
    broken = text.replace("-> 2 Retourner sur la place", "-> 99 Retourner sur la place", 1)
    client.replace(document, broken, 2)
    found = client.wait_diagnostics(document)
    assert [d.code for d in found] == ["E010"]
    assert "99" in found[0].message and "paragraphe" in found[0].message
    typo = text.replace("> gagnez 12 or", "> gagnze 12 or")
    client.replace(document, typo, 3)
    found = client.wait_diagnostics(document)
    assert [d.code for d in found] == ["E001"]
    actions = client.request(
        "textDocument/codeAction",
        types.CodeActionParams(
            text_document=doc(document),
            range=found[0].range,
            context=types.CodeActionContext(diagnostics=found),
        ),
        list[types.CodeAction],
    )
    edits = [a.edit.changes[document][0] for a in actions]
    assert [e.new_text for e in edits] == ["gagnez"]
    assert edits[0].range.start == position(gain, 2)
    assert edits[0].range.end == position(gain, 8)


def test_save_runs_the_costly_checks(client: Client, salt: Path) -> None:
    road = salt / "01-road.dd"
    text = road.read_text().replace("SKILL 7 STAMINA 6", "SKILL 14 STAMINA 30")
    document = client.open(road, text)
    quick = client.wait_diagnostics(document)
    assert "W030" not in {d.code for d in quick}  # the odds wait for the save
    road.write_text(text)
    client.notify(
        "textDocument/didSave", types.DidSaveTextDocumentParams(text_document=doc(document))
    )
    found = client.wait_diagnostics(document)
    assert {"W030", "W031"} & {d.code for d in found}, [d.code for d in found]


def test_book_yaml_errors_land_in_book_yaml(client: Client, salt: Path) -> None:
    meta = salt / "book.yaml"
    document = client.open(meta, meta.read_text().replace("start: 1", "start: 77"))
    found = client.wait_diagnostics(document)
    assert [d.code for d in found] == ["E003"]
    assert found[0].range.start.line == 4


@pytest.mark.parametrize(
    "text",
    [
        "§ 1\n> fight\n> enemy\n-> [",
        "\x00\x01§§§ -> -> (((",
        "§ 1 start\n" + "-> 1 (if " * 400 + "\n",
        "§ 99999999999999999999 big\n-> 99999999999999999999\n",
    ],
)
def test_a_broken_book_gives_diagnostics_never_a_crash(
    client: Client, salt: Path, text: str
) -> None:
    road = salt / "01-road.dd"
    document = client.open(road, text)
    found = client.wait_diagnostics(document)
    assert found and all(d.severity == types.DiagnosticSeverity.Error for d in found[:1])
    for method, params, answer in [
        (
            "textDocument/completion",
            types.CompletionParams(text_document=doc(document), position=position(0, 2)),
            list[types.CompletionItem],
        ),
        (
            "textDocument/hover",
            types.HoverParams(text_document=doc(document), position=position(1, 4)),
            types.Hover,
        ),
        (
            "textDocument/documentSymbol",
            types.DocumentSymbolParams(text_document=doc(document)),
            list[types.DocumentSymbol],
        ),
    ]:
        client.request(method, params, answer)
    assert client.process.poll() is None


def test_french_hovers(client: Client, puits: Path) -> None:
    path = puits / "02-galeries.dd"
    document = client.open(path)
    client.wait_diagnostics(document)

    def hover(line: int, column: int) -> str:
        found = client.request(
            "textDocument/hover",
            types.HoverParams(text_document=doc(document), position=position(line, column)),
            types.Hover,
        )
        return found.contents.value

    assert "héros médian" in hover(16, 4)  # > combat comme un seul (line 17)
    habilete = hover(17, 22)  # HABILETÉ of the grey rat
    assert "HABILETÉ" in habilete and "caractéristique des règles" in habilete
    assert "§ 16" in hover(8, 4)


def test_documents_outside_a_book_and_a_huge_text(
    client: Client, salt: Path, tmp_path: Path
) -> None:
    untitled = "untitled:Untitled-1"
    client.notify(
        "textDocument/didOpen",
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=untitled, language_id="dedale", version=1, text="§ 1\n-> 2"
            )
        ),
    )
    loose = tmp_path / "loose.dd"
    loose.write_text("§ 1\n-> 2\n")
    loose_uri = client.open(loose)
    for document in (untitled, loose_uri):
        assert _complete(client, document, 1, 3) == []
    road = salt / "01-road.dd"
    huge = "§ 1 start\n" + ("x" * 99 + "\n") * (limits.MAX_FILE_BYTES // 100 + 10)
    document = client.open(road, huge)
    found = client.wait_diagnostics(document, timeout=20)
    assert found and "too large" in found[0].message
    assert _complete(client, document, 0, 2) == []


def test_a_malformed_message_does_not_stop_the_server(client: Client, salt: Path) -> None:
    client.process.stdin.write(b"Content-Length: 9\r\n\r\n{not json")
    client.process.stdin.flush()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": 12}})  # wrong types
    road = salt / "01-road.dd"
    document = client.open(road)
    client.wait_diagnostics(document)
    symbols = client.request(
        "textDocument/documentSymbol",
        types.DocumentSymbolParams(text_document=doc(document)),
        list[types.DocumentSymbol],
    )
    assert len(symbols) == 5 and client.process.poll() is None
