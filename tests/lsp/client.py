"""A small LSP client over stdio for the tests: JSON-RPC framing, lsprotocol's converter.

It starts ``python -m dedale lsp`` as a subprocess and reads its messages in a thread;
``request`` waits (bounded) for the answer, ``wait_diagnostics`` for a publishDiagnostics.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.protocol import default_converter
from pygls.uris import from_fs_path

TIMEOUT = 8.0
STARTUP = 30.0
"""The server's first answer waits for its imports (lsprotocol's types alone take 0.5 s idle,
several seconds on a loaded machine)."""


class Client:
    """One server process and the messages it sent."""

    def __init__(self, cwd: Path | None = None) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dedale", "lsp"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        self.converter = default_converter()
        self.answers: dict[int, Any] = {}
        self.notifications: queue.Queue = queue.Queue()
        self.lock = threading.Condition()
        self.next_id = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    # -------------------------------------------------------------- framing
    def _send(self, message: dict) -> None:
        body = json.dumps(message).encode("utf-8")
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value.strip())
            if length is None:
                continue
            message = json.loads(stream.read(length))
            if "id" in message and "method" not in message:
                with self.lock:
                    self.answers[message["id"]] = message
                    self.lock.notify_all()
            elif "method" in message:
                if "id" in message:  # a request from the server (registerCapability...)
                    self._send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                else:
                    self.notifications.put(message)

    # -------------------------------------------------------------- messages
    def request(
        self, method: str, params: Any, answer: type | None = None, timeout: float = TIMEOUT
    ) -> Any:
        self.next_id += 1
        ident = self.next_id
        self._send(
            {
                "jsonrpc": "2.0",
                "id": ident,
                "method": method,
                "params": self.converter.unstructure(params),
            }
        )
        deadline = time.monotonic() + timeout
        with self.lock:
            while ident not in self.answers:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(method)
                self.lock.wait(left)
            message = self.answers.pop(ident)
        if "error" in message:
            raise RuntimeError(message["error"])
        result = message.get("result")
        if answer is None or result is None:
            return result
        return self.converter.structure(result, answer)

    def notify(self, method: str, params: Any) -> None:
        self._send(
            {"jsonrpc": "2.0", "method": method, "params": self.converter.unstructure(params)}
        )

    def wait_diagnostics(self, uri: str, timeout: float = TIMEOUT) -> list[types.Diagnostic]:
        """The next diagnostics published for ``uri``."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no diagnostics for {uri}")
            try:
                message = self.notifications.get(timeout=left)
            except queue.Empty:
                raise TimeoutError(f"no diagnostics for {uri}") from None
            if message["method"] != "textDocument/publishDiagnostics":
                continue
            params = self.converter.structure(message["params"], types.PublishDiagnosticsParams)
            if params.uri == uri:
                return list(params.diagnostics)

    # -------------------------------------------------------------- session
    def initialize(self, root: Path) -> types.InitializeResult:
        params = types.InitializeParams(
            process_id=os.getpid(),
            root_uri=uri(root),
            capabilities=types.ClientCapabilities(
                general=types.GeneralClientCapabilities(
                    position_encodings=[types.PositionEncodingKind.Utf16]
                )
            ),
        )
        result = self.request("initialize", params, types.InitializeResult, STARTUP)
        self.notify("initialized", types.InitializedParams())
        return result

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        document = uri(path)
        self.notify(
            "textDocument/didOpen",
            types.DidOpenTextDocumentParams(
                types.TextDocumentItem(
                    document, "dedale", version, path.read_text("utf-8") if text is None else text
                )
            ),
        )
        return document

    def replace(self, document: str, text: str, version: int) -> None:
        self.notify(
            "textDocument/didChange",
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=document),
                [types.TextDocumentContentChangeWholeDocument(text=text)],
            ),
        )

    def close(self) -> int:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            return self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait(timeout=TIMEOUT)
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                stream.close()


def uri(path: Path) -> str:
    return from_fs_path(str(path))


def position(line: int, character: int) -> types.Position:
    return types.Position(line=line, character=character)


def doc(document: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=document)
