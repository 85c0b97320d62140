"""One language server process per test module (starting one costs a second or two on a
loaded machine); each test opens its own copy of a book, so that nothing leaks between
them (the server keeps one session per book folder)."""

from __future__ import annotations

import pytest

from tests.lsp.client import Client


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    root = tmp_path_factory.mktemp("lsp-root")
    session = Client(cwd=root)
    result = session.initialize(root)
    assert result.capabilities.completion_provider is not None
    assert result.capabilities.rename_provider is not None
    yield session
    assert session.close() == 0


@pytest.fixture
def client(server: Client) -> Client:
    return server
