"""Session tokens and their save folders; the page's HTML; what counts as loopback, and
which requests the server answers."""

from __future__ import annotations

import pytest
from dedale.web.guard import host_allowed, loopback, same_origin
from dedale.web.page import DEFAULT_FONT_SIZE, font_size, render_page
from dedale.web.sessions import SessionFolders, new_token, valid_token

pytest.importorskip("textual_serve", reason="the web extra is not installed")
from dedale.web.server import extra_play_options  # noqa: E402


def test_tokens_are_random_hex_and_checked():
    token = new_token()
    assert valid_token(token) and token != new_token()
    for bad in (None, "", "../x", token.upper(), token + "0", "g" * 32, token[:-1] + "/"):
        assert not valid_token(bad)


def test_each_token_has_its_folder_and_new_ones_are_bounded(tmp_path):
    folders = SessionFolders(tmp_path, limit=2)
    first, second, third = new_token(), new_token(), new_token()
    assert folders.folder(first) == tmp_path / "sessions" / first
    assert folders.folder(first) == tmp_path / "sessions" / first  # the same one again
    assert folders.folder("../../etc") is None
    assert folders.folder(second) is not None
    assert folders.folder(third) is None  # a third browser: over the limit
    assert folders.folder(first) is not None  # the known ones still play
    assert folders.count() == 2
    assert (tmp_path / "sessions" / first).stat().st_mode & 0o077 == 0  # private


def test_the_page_is_titled_and_escapes_the_title():
    html = render_page(
        title="Le <b>Gué</b> & co",
        lang="fr",
        websocket_url="ws://127.0.0.1:8000/ws",
        static_url="/static/",
    )
    assert "<title>Le &lt;b&gt;Gué&lt;/b&gt; &amp; co</title>" in html
    assert '<html lang="fr">' in html and "Commencer" in html
    assert "googleapis" not in html  # no request to another site
    assert 'data-session-websocket-url="ws://127.0.0.1:8000/ws"' in html


@pytest.mark.parametrize(
    ("asked", "size"),
    [(None, DEFAULT_FONT_SIZE), ("20", 20), ("x", DEFAULT_FONT_SIZE), ("900", 16)],
)
def test_font_sizes_are_bounded(asked, size):
    assert font_size(asked) == size


@pytest.mark.parametrize(
    ("host", "local"),
    [("127.0.0.1", True), ("localhost", True), ("::1", True), ("127.0.0.2", True),
     ("0.0.0.0", False), ("::", False), ("192.168.1.5", False), ("example.org", False)],
)  # fmt: skip
def test_loopback(host, local):
    assert loopback(host) is local


def test_play_options_passed_to_every_game():
    assert extra_play_options(None, False, None) == []
    assert extra_play_options("en", True, False) == ["--lang", "en", "--no-odds", "--no-turn-to"]


def test_a_loopback_server_answers_loopback_names_only():
    assert host_allowed("127.0.0.1:8000", "127.0.0.1")
    assert host_allowed("localhost:8000", "127.0.0.1")
    assert host_allowed("[::1]:8000", "::1")
    assert not host_allowed("evil.example:8000", "127.0.0.1")  # a rebound name
    assert not host_allowed(None, "127.0.0.1")
    assert host_allowed("192.168.1.5:8000", "0.0.0.0")  # on the network: the owner's choice


def test_the_websocket_opens_from_the_servers_own_page_only():
    assert same_origin("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert same_origin(None, "127.0.0.1:8000")  # not a browser page
    assert not same_origin("http://evil.example", "127.0.0.1:8000")
    assert not same_origin("http://127.0.0.1:9000", "127.0.0.1:8000")


def test_a_folder_that_cannot_be_made_gives_no_saves(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    folders = SessionFolders(blocker)
    assert folders.prepare() is not None
    assert folders.folder(new_token()) is None
    assert SessionFolders(tmp_path / "fine").prepare() is None
