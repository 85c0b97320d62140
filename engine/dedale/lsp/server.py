"""The pygls server: documents in, diagnostics out, and the requests of an editor.

Diagnostics run :data:`DEBOUNCE` seconds after the last keystroke (the quick checks, on the
book with every open document's unsaved text); on save the full validation runs in a worker
thread (its costly checks are bounded by the validator's own time budgets). Every handler is
wrapped by :func:`guarded`: an unexpected exception is logged to the editor and the request
answered with nothing, so that a malformed book never stops the server.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidRequest
from pygls.lsp.server import LanguageServer

from dedale import __version__
from dedale.i18n import translate
from dedale.lsp import completion, hover, navigation
from dedale.lsp.books import find_book
from dedale.lsp.diagnostics import by_file, diagnostic
from dedale.lsp.index import Heading, Reference
from dedale.lsp.positions import Positions, path_of, uri_of
from dedale.lsp.session import BookSession, run_checks

DEBOUNCE = 0.3
"""Seconds of quiet after a change before the quick checks run."""
log = logging.getLogger("dedale.lsp")


class DedaleServer(LanguageServer):
    """The language server, with one :class:`BookSession` per book the editor opened."""

    def __init__(self) -> None:
        super().__init__("dedale", __version__)
        self.sessions: dict[Path, BookSession] = {}
        self.published: dict[Path, set[str]] = {}
        self.pending: dict[Path, asyncio.Task] = {}

    # -------------------------------------------------------------- books
    def session_for(self, uri: str) -> tuple[BookSession, Path] | None:
        path = path_of(uri)
        if path is None:
            return None
        for session in self.sessions.values():
            if session.place.holds(path) or path == session.place.root / "book.yaml":
                return session, path
        document = self.workspace.text_documents.get(uri)
        place = find_book(path, document.source if document else None)
        if place is None:
            return None
        session = self.sessions.setdefault(place.root, BookSession(place))
        return session, path

    def positions(self, session: BookSession) -> Positions:
        return Positions(self.workspace.position_codec, session.lines)

    def sync(self, uri: str) -> BookSession | None:
        """Copy the document's text into its book's overlay."""
        found = self.session_for(uri)
        if found is None:
            return None
        session, path = found
        document = self.workspace.text_documents.get(uri)
        before = session.overlay.get(path)
        if document is not None:
            session.overlay[path] = document.source
        else:
            session.overlay.pop(path, None)
        if session.overlay.get(path) != before:
            session.generation += 1
        return session

    # -------------------------------------------------------------- diagnostics
    def schedule(self, session: BookSession, delay: float = DEBOUNCE) -> None:
        root = session.place.root
        waiting = self.pending.pop(root, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[root] = asyncio.ensure_future(self._quick_later(session, delay))

    async def _quick_later(self, session: BookSession, delay: float) -> None:
        await asyncio.sleep(delay)
        await self._check(session, full=False)

    async def full_check(self, session: BookSession) -> None:
        await self._check(session, full=True)

    async def _check(self, session: BookSession, full: bool) -> None:
        """Run the checks in a worker thread (requests are answered meanwhile) and publish
        them, unless the author typed on in the meantime (a newer check is on its way)."""
        place, overlay, generation = session.place, dict(session.overlay), session.generation
        try:
            book, findings = await asyncio.to_thread(run_checks, place, overlay, full)
            if session.generation == generation:
                session.adopt(book, findings)
                self.publish(session, findings)
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - never let a check stop the server
            self.report(traceback.format_exc())

    def publish(self, session: BookSession, findings: list) -> None:
        lang = session.lang
        fallback = session.files()[0]
        placed = by_file(findings, fallback, session.lines, lang)
        for path in session.overlay:  # an open file with nothing to say is told so
            placed.setdefault(path, [])
        positions = self.positions(session)
        sent: set[str] = set()
        for path, entries in placed.items():
            uri = uri_of(path)
            sent.add(uri)
            items = []
            lines = session.lines(path)
            for item, line, start, end_line, end, fix in entries:
                where = types.Range(
                    positions.point(lines, line, start), positions.point(lines, end_line, end)
                )
                items.append(diagnostic(item, where, fix, lang))
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=items)
            )
        for uri in self.published.get(session.place.root, set()) - sent:
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )
        self.published[session.place.root] = sent

    def report(self, text: str) -> None:
        log.error(text)
        try:
            self.window_log_message(
                types.LogMessageParams(type=types.MessageType.Error, message=text[-4000:])
            )
        except Exception:  # noqa: BLE001 - the client went away
            pass


def guarded(default: Any = None) -> Callable:
    """Answer ``default`` (and log) when a handler raises."""

    def wrap(handler: Callable) -> Callable:
        @functools.wraps(handler)
        def call(ls: DedaleServer, params: Any) -> Any:
            try:
                return handler(ls, params)
            except JsonRpcException:  # an answer meant for the editor (a refused rename)
                raise
            except Exception:  # noqa: BLE001 - a bug must never stop the server
                ls.report(traceback.format_exc())
                return default

        return call

    return wrap


server = DedaleServer()


# ------------------------------------------------------------------ documents
@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@guarded()
def did_open(ls: DedaleServer, params: types.DidOpenTextDocumentParams) -> None:
    session = ls.sync(params.text_document.uri)
    if session is not None:
        ls.schedule(session, 0)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
@guarded()
def did_change(ls: DedaleServer, params: types.DidChangeTextDocumentParams) -> None:
    session = ls.sync(params.text_document.uri)
    if session is not None:
        ls.schedule(session)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
@guarded()
def did_save(ls: DedaleServer, params: types.DidSaveTextDocumentParams) -> None:
    session = ls.sync(params.text_document.uri)
    if session is not None:
        waiting = ls.pending.pop(session.place.root, None)
        if waiting is not None:
            waiting.cancel()
        asyncio.ensure_future(ls.full_check(session))


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
@guarded()
def did_close(ls: DedaleServer, params: types.DidCloseTextDocumentParams) -> None:
    found = ls.session_for(params.text_document.uri)
    if found is not None:
        session, path = found
        session.overlay.pop(path, None)
        ls.schedule(session)


# ------------------------------------------------------------------ requests
def _at(ls: DedaleServer, uri: str, position: types.Position):  # noqa: ANN202
    found = ls.session_for(uri)
    if found is None:
        return None
    session, path = found
    ls.sync(uri)
    line, column = ls.positions(session).inward(path, position)
    index = session.index()
    return session, path, index, line, column, index.at(path, line, column)


@server.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=[">", " ", "("]),
)
@guarded([])
def on_completion(ls: DedaleServer, params: types.CompletionParams) -> list:
    found = _at(ls, params.text_document.uri, params.position)
    if found is None:
        return []
    session, path, index, line, column, _ = found
    lines = session.lines(path)
    before = lines[line][:column] if line < len(lines) else ""
    ruleset = getattr(session.book, "ruleset", None)
    return completion.complete(index, before, session.lang, ruleset)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@guarded()
def on_definition(ls: DedaleServer, params: types.DefinitionParams) -> Any:
    found = _at(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    session, _path, index, _line, _column, under = found
    place = navigation.definition(index, under)
    return ls.positions(session).location(place) if place is not None else None


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
@guarded([])
def on_references(ls: DedaleServer, params: types.ReferenceParams) -> list:
    found = _at(ls, params.text_document.uri, params.position)
    if found is None:
        return []
    session, path, index, line, _column, under = found
    number = navigation.target_of(index, under)
    if number is None:  # anywhere in a paragraph: who leads here
        heading = index.paragraph_at(path, line)
        number = heading.number if heading is not None else None
    if number is None:
        return []
    places = navigation.references(index, number, params.context.include_declaration)
    positions = ls.positions(session)
    return [positions.location(place) for place in places]


@server.feature(types.TEXT_DOCUMENT_HOVER)
@guarded()
def on_hover(ls: DedaleServer, params: types.HoverParams) -> Any:
    found = _at(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    session, path, index, line, column, under = found
    if session.book is None and not session.findings:
        session.check()
    lang = session.lang
    text = None
    if isinstance(under, Reference):
        text = hover.reference_hover(index, under, lang)
    elif isinstance(under, Heading):
        text = hover.paragraph_hover(index, under.number, lang)
    if text is None:
        lines = session.lines(path)
        current = lines[line] if line < len(lines) else ""
        text = hover.stat_hover(getattr(session.book, "ruleset", None), current, column, lang)
    if text is None:
        text = hover.fight_hover(session, index, path, line)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
@guarded()
def on_prepare_rename(ls: DedaleServer, params: types.PrepareRenameParams) -> Any:
    found = _at(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    session, _path, _index, line, column, under = found
    if isinstance(under, Reference):
        return ls.positions(session).range(under.at)
    if isinstance(under, Heading):
        label = under.label_at
        if label is not None and label.line == line and label.start <= column <= label.end:
            return ls.positions(session).range(label)
        return ls.positions(session).range(under.number_at)
    return None


@server.feature(types.TEXT_DOCUMENT_RENAME)
@guarded()
def on_rename(ls: DedaleServer, params: types.RenameParams) -> Any:
    found = _at(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    session, _path, index, line, column, under = found
    try:
        edits = navigation.rename(index, under, line, column, params.new_name, _meta(session))
    except navigation.RenameRefused as refused:  # the editor shows the reason
        raise JsonRpcInvalidRequest(translate(refused.args[0], session.lang)) from None
    positions = ls.positions(session)
    changes = {
        uri_of(path): [types.TextEdit(positions.range(place), text) for place, text in items]
        for path, items in edits.items()
    }
    return types.WorkspaceEdit(changes=changes)


def _meta(session: BookSession) -> tuple[Path, list[str]]:
    """book.yaml's path and lines, or a single-file book's front matter."""
    if session.place.folder:
        meta = session.place.root / "book.yaml"
        return meta, session.lines(meta)
    lines = session.lines(session.place.root)
    end = next((n for n in range(1, len(lines)) if lines[n].strip() == "---"), 0)
    return session.place.root, lines[:end]


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded([])
def on_symbols(ls: DedaleServer, params: types.DocumentSymbolParams) -> list:
    found = ls.session_for(params.text_document.uri)
    if found is None:
        return []
    session, path = found
    ls.sync(params.text_document.uri)
    positions = ls.positions(session)
    symbols = []
    lines = session.lines(path)
    for heading in navigation.outline(session.index(), path):
        last = heading.last_line
        whole = positions.line_range(path, heading.number_at.line, 0, 0)
        end_column = len(lines[last]) if last < len(lines) else 0
        whole = types.Range(whole.start, positions.point(lines, last, end_column))
        symbols.append(
            types.DocumentSymbol(
                name=f"§ {heading.number}",
                detail=heading.label
                or (heading.first_lines[0][:60] if heading.first_lines else ""),
                kind=types.SymbolKind.Namespace,
                range=whole,
                selection_range=positions.range(heading.number_at),
            )
        )
    return symbols


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
)
@guarded([])
def on_code_action(ls: DedaleServer, params: types.CodeActionParams) -> list:
    found = ls.session_for(params.text_document.uri)
    if found is None:
        return []
    session, path = found
    positions = ls.positions(session)
    actions = []
    for item in params.context.diagnostics[:100]:
        fix = item.data if isinstance(item.data, dict) else None
        if not fix or not {"title", "line", "start", "end", "text"} <= set(fix):
            continue
        try:
            where = positions.line_range(path, int(fix["line"]), int(fix["start"]), int(fix["end"]))
        except (TypeError, ValueError):
            continue
        edit = types.TextEdit(where, str(fix["text"]))
        actions.append(
            types.CodeAction(
                title=str(fix["title"]),
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[item],
                is_preferred=True,
                edit=types.WorkspaceEdit(changes={params.text_document.uri: [edit]}),
            )
        )
    return actions


def serve() -> None:
    """Run the server on stdin/stdout until the editor says exit (logs go to stderr,
    which editors show in the server's log)."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    server.start_io()
