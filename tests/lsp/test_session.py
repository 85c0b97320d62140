"""A real LSP session over stdio: ``python -m dedale lsp`` driven by a JSON-RPC client."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lsprotocol import types

from tests.lsp.client import Client, doc, position, uri

BOOK = Path(__file__).parents[1] / "books_extra" / "lsp"


@pytest.fixture
def book(tmp_path: Path) -> Path:
    folder = tmp_path / "salt-road"
    shutil.copytree(BOOK, folder)
    return folder


def _line(path: Path, start: str) -> int:
    return next(n for n, text in enumerate(path.read_text().split("\n")) if text.startswith(start))


def test_diagnostics_follow_the_unsaved_text(client: Client, book: Path) -> None:
    road = book / "01-road.dd"
    document = client.open(road)
    assert client.wait_diagnostics(document) == []
    text = road.read_text().replace("-> 4 Stay with", "-> 40 Stay with")
    client.replace(document, text, 2)
    found = client.wait_diagnostics(document)
    assert [d.code for d in found] == ["E010"]
    assert "40" in found[0].message
    line = _line(road, "-> 4 Stay with")
    assert found[0].range.start == position(line, 3)
    client.replace(document, road.read_text(), 3)
    assert client.wait_diagnostics(document) == []


def test_completion_definition_references_hover(client: Client, book: Path) -> None:
    road = book / "01-road.dd"
    document = client.open(road)
    client.wait_diagnostics(document)
    line = _line(road, "-> 2 Walk beside")
    items = client.request(
        "textDocument/completion",
        types.CompletionParams(text_document=doc(document), position=position(line, 3)),
        list[types.CompletionItem],
    )
    labels = [item.label for item in items]
    assert {"1", "2", "6", "gate", "cistern"} <= set(labels)
    gt = client.request(
        "textDocument/completion",
        types.CompletionParams(
            text_document=doc(document), position=position(_line(road, "> gain 3"), 2)
        ),
        list[types.CompletionItem],
    )
    words = [item.label for item in gt]
    assert words.index("fight") < words.index("combat")  # the book is in English
    definition = client.request(
        "textDocument/definition",
        types.DefinitionParams(
            text_document=doc(document), position=position(_line(road, "-> ? (6)"), 6)
        ),
        types.Location,
    )
    assert definition.uri == uri(book / "02-cistern.dd")
    assert definition.range.start == position(0, 2)
    refs = client.request(
        "textDocument/references",
        types.ReferenceParams(
            text_document=doc(document),
            position=position(_line(road, "§ 4"), 2),
            context=types.ReferenceContext(include_declaration=False),
        ),
        list[types.Location],
    )
    assert sorted(r.range.start.line for r in refs) == [
        _line(road, "-> 4 Stay"),
        _line(road, "-> 4 (if codeword"),
        _line(road, "> win -> 4"),
    ]
    hovered = client.request(
        "textDocument/hover",
        types.HoverParams(
            text_document=doc(document), position=position(_line(road, "-> 2 Walk"), 3)
        ),
        types.Hover,
    )
    assert "§ 2" in hovered.contents.value and "creak over the dunes" in hovered.contents.value
    fight = client.request(
        "textDocument/hover",
        types.HoverParams(
            text_document=doc(document), position=position(_line(road, "> enemy DUNE"), 5)
        ),
        types.Hover,
    )
    assert "Median hero" in fight.contents.value and "100.0" in fight.contents.value
    stat = client.request(
        "textDocument/hover",
        types.HoverParams(
            text_document=doc(document), position=position(_line(road, "> enemy DUNE"), 20)
        ),
        types.Hover,
    )
    assert "SKILL" in stat.contents.value and "df-classic" in stat.contents.value


def test_rename_symbols_code_action(client: Client, book: Path) -> None:
    road, cistern = book / "01-road.dd", book / "02-cistern.dd"
    document = client.open(road)
    client.wait_diagnostics(document)
    edit = client.request(
        "textDocument/rename",
        types.RenameParams(
            text_document=doc(document),
            position=position(_line(road, "-> ? (6)"), 6),
            new_name="60",
        ),
        types.WorkspaceEdit,
    )
    assert set(edit.changes) == {uri(road), uri(cistern)}
    assert [e.new_text for e in edit.changes[uri(cistern)]] == ["60"]
    assert [e.range.start.line for e in edit.changes[uri(road)]] == [_line(road, "-> ? (6)")]
    label = client.request(
        "textDocument/rename",
        types.RenameParams(
            text_document=doc(document),
            position=position(_line(road, "-> well"), 5),
            new_name="spring",
        ),
        types.WorkspaceEdit,
    )
    assert sorted(e.range.start.line for e in label.changes[uri(road)]) == [
        _line(road, "-> well"),
        _line(road, "§ 5 well"),
    ]
    symbols = client.request(
        "textDocument/documentSymbol",
        types.DocumentSymbolParams(text_document=doc(document)),
        list[types.DocumentSymbol],
    )
    assert [s.name for s in symbols] == ["§ 1", "§ 2", "§ 3", "§ 4", "§ 5"]
    assert symbols[0].detail == "gate"
    text = road.read_text().replace("> take Copper Key", "take Copper Key")
    client.replace(document, text, 2)
    found = client.wait_diagnostics(document)
    prose = [d for d in found if d.code == "W061"]
    assert prose, [d.code for d in found]
    actions = client.request(
        "textDocument/codeAction",
        types.CodeActionParams(
            text_document=doc(document),
            range=prose[0].range,
            context=types.CodeActionContext(diagnostics=prose),
        ),
        list[types.CodeAction],
    )
    assert [a.edit.changes[document][0].new_text for a in actions] == ["> "]


def test_renumbering_the_start_follows_in_book_yaml(client: Client, book: Path) -> None:
    road = book / "01-road.dd"
    document = client.open(road)
    client.wait_diagnostics(document)
    edit = client.request(
        "textDocument/rename",
        types.RenameParams(
            text_document=doc(document), position=position(_line(road, "§ 1"), 2), new_name="100"
        ),
        types.WorkspaceEdit,
    )
    with pytest.raises(RuntimeError, match="paragraph 2 already exists"):
        client.request(
            "textDocument/rename",
            types.RenameParams(
                text_document=doc(document),
                position=position(_line(road, "§ 1"), 2),
                new_name="2",
            ),
        )
    meta = edit.changes[uri(book / "book.yaml")]
    assert [(e.range.start.line, e.range.start.character, e.new_text) for e in meta] == [
        (4, 7, "100")
    ]


def test_renumbering_a_hidden_paragraph_follows_in_book_yamls_hidden_list(
    client: Client, book: Path
) -> None:
    meta_path = book / "book.yaml"
    meta_path.write_text(meta_path.read_text() + "validator:\n  hidden: [7, 5]\n")
    cistern = book / "02-cistern.dd"
    document = client.open(cistern)
    client.wait_diagnostics(document)
    edit = client.request(
        "textDocument/rename",
        types.RenameParams(
            text_document=doc(document), position=position(_line(cistern, "§ 7"), 2), new_name="70"
        ),
        types.WorkspaceEdit,
    )
    meta = edit.changes[uri(meta_path)]
    assert [(e.range.start.line, e.range.start.character, e.new_text) for e in meta] == [
        (6, 11, "70")
    ]


def test_edits_in_a_burst_are_checked_once(client: Client, book: Path) -> None:
    road = book / "01-road.dd"
    document = client.open(road)
    client.wait_diagnostics(document)
    text = road.read_text()
    for version in range(2, 7):  # five keystrokes within the debounce
        client.replace(document, text.replace("-> 2 Walk", f"-> {version}00 Walk"), version)
    found = client.wait_diagnostics(document)
    missing = [d.message for d in found if d.code == "E010"]
    assert len(missing) == 1 and "600" in missing[0]  # the last text only
    with pytest.raises(TimeoutError):
        client.wait_diagnostics(document, timeout=1.0)  # no second publication
