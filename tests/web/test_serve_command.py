"""``dedale serve``'s command line: bad input is a located error with exit 1 or 2 (never a
traceback), a non-loopback host is warned about, Ctrl-C stops it with exit 0; and its
websocket only runs a game for a browser with a session, at most ``--max-games`` at once."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.serving import free_port, serving

pytest.importorskip("textual_serve", reason="the web extra is not installed")
BOOKS = Path(__file__).resolve().parents[1] / "books_extra" / "web"


def _serve(*words: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dedale", "serve", *words],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_no_such_book_is_a_usage_error():
    done = _serve("no/such/book")
    assert done.returncode == 2, done.stderr
    assert "no book at no/such/book" in done.stderr and "hint:" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_book_that_does_not_load_is_located_in_its_language(tmp_path):
    book = tmp_path / "cassé"
    book.mkdir()
    (book / "book.yaml").write_text(
        "titre: Cassé\nlangue: fr\njeu-de-règles: df-classic\ndépart: 1\n", encoding="utf-8"
    )
    (book / "livre.dd").write_text("§ 1\nUne porte.\n-> 2 Ouvrir\n-> Rien\n", encoding="utf-8")
    done = _serve(str(book), "--port", str(free_port()))
    assert done.returncode == 1, done.stderr
    assert f"{book / 'livre.dd'}:" in done.stderr  # file:line:column
    assert "Traceback" not in done.stderr


def test_a_port_in_use_is_a_usage_error_and_a_public_host_is_warned_about(tmp_path):
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve(str(BOOKS / "en"), "--host", "0.0.0.0", "--port", str(port))
    assert done.returncode == 2, done.stderr
    assert "warning: 0.0.0.0 is not a loopback address: anyone who can reach" in done.stderr
    assert f"cannot listen on 0.0.0.0 port {port}" in done.stderr
    assert "Choose another one with --port" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unknown_host_is_a_usage_error():
    done = _serve(str(BOOKS / "en"), "--host", "no-such-host.invalid", "--port", str(free_port()))
    assert done.returncode == 2, done.stderr
    assert "cannot listen on no-such-host.invalid port" in done.stderr
    assert "--host must be a name or an address of this machine" in done.stderr


def test_a_french_book_gets_french_messages(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve(str(BOOKS / "fr"), "--port", str(port))
    assert done.returncode == 2, done.stderr
    assert f"impossible d'écouter sur 127.0.0.1 port {port}" in done.stderr
    assert "warning" not in done.stderr and "attention" not in done.stderr  # loopback


def test_a_data_folder_that_cannot_be_written_is_a_usage_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = _serve(str(BOOKS / "en"), "--data-dir", str(blocker), "--port", str(free_port()))
    assert done.returncode == 2, done.stderr
    assert f"cannot keep saves in {blocker / 'sessions'}" in done.stderr
    assert "--data-dir" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--port", "0"], "--port must be between 1 and 65535, not 0"),
        (["--max-games", "0"], "--max-games must be at least 1"),
    ],
)
def test_bad_numbers_are_usage_errors(words, said):
    done = _serve(str(BOOKS / "en"), *words)
    assert done.returncode == 2 and said in done.stderr, done.stderr


def test_ctrl_c_stops_the_server_cleanly(tmp_path):
    with serving(BOOKS / "en", tmp_path) as served:
        pass  # serving() sends SIGINT and checks the exit code 0
    log = served.output()
    assert '"The Misty Tower" is served at http://127.0.0.1:' in log
    assert "one folder per browser" in log and log.rstrip().endswith("Server stopped.")
    assert "Traceback" not in log


async def _first_bytes(url: str, cookie: str | None) -> tuple[bytes, bool]:
    """Connect to the game's websocket; the first bytes sent, and whether it closed."""
    import aiohttp

    headers = {"Cookie": f"dedale_session={cookie}"} if cookie else {}
    async with aiohttp.ClientSession() as client:
        async with client.ws_connect(url + "ws?width=80&height=24", headers=headers) as ws:
            message = await ws.receive(timeout=20)
            data = message.data if message.type == aiohttp.WSMsgType.BINARY else b""
            following = await ws.receive(timeout=20)
            return data, following.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)


def test_the_websocket_wants_a_session_and_bounds_the_games(tmp_path):
    import aiohttp

    async def scenario(url: str) -> dict[str, object]:
        seen: dict[str, object] = {}
        seen["none"] = await _first_bytes(url, None)
        seen["forged"] = await _first_bytes(url, "../../etc")
        async with aiohttp.ClientSession() as client:
            async with client.get(url) as page:
                token = page.cookies["dedale_session"].value
                seen["page"] = await page.text()
            headers = {"Cookie": f"dedale_session={token}"}
            async with client.ws_connect(url + "ws?width=80&height=24", headers=headers) as ws:
                seen["game"] = (await ws.receive(timeout=30)).type
                seen["second"] = await _first_bytes(url, token)  # --max-games 1
        seen["token"] = token
        return seen

    async def other_sites(url: str) -> tuple[int, int]:
        async with aiohttp.ClientSession() as client:
            port = url.rsplit(":", 1)[1].strip("/")
            rebound = {"Host": f"evil.example:{port}"}
            async with client.get(url, headers=rebound) as page:
                wrong_host = page.status
            async with client.get(url + "static/") as listing:
                assert listing.status in (403, 404)  # no folder listing
            async with client.get(url + "static/js/textual.js") as script:
                assert script.status == 200
            try:
                async with client.ws_connect(url + "ws", headers={"Origin": "http://evil.example"}):
                    foreign = 101
            except aiohttp.WSServerHandshakeError as error:
                foreign = error.status
        return wrong_host, foreign

    with serving(BOOKS / "en", tmp_path, "--max-games", "1") as served:
        seen = asyncio.run(scenario(served.url))
        wrong_host, foreign = asyncio.run(other_sites(served.url))
    assert (wrong_host, foreign) == (421, 403)
    no_session, closed = seen["none"]
    assert closed and b"keeps no saves for this browser" in no_session
    assert b"keeps no saves" in seen["forged"][0]
    assert "<title>The Misty Tower</title>" in str(seen["page"])
    assert seen["game"] == aiohttp.WSMsgType.BINARY  # the game's first screen
    assert b"Too many games are being played on this server at once (1)" in seen["second"][0]
    sessions = tmp_path / "data" / "sessions"
    assert [p.name for p in sessions.iterdir()] == [seen["token"]]  # nothing for the forged one


def test_ctrl_c_in_a_terminal_with_a_game_open(tmp_path):
    """A terminal's Ctrl-C signals the whole process group: the server and its games. The
    server still stops cleanly (exit 0, no traceback) and the tab's websocket is closed."""
    import aiohttp

    from tests.web.serving import wait_until_listening

    port = free_port()
    log = tmp_path / "serve.log"
    command = [sys.executable, "-m", "dedale", "serve", str(BOOKS / "en"), "--port", str(port)]
    command += ["--data-dir", str(tmp_path / "data")]
    with open(log, "w", encoding="utf-8") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    url = f"http://127.0.0.1:{port}/"

    async def scenario() -> bool:
        async with aiohttp.ClientSession() as client:
            async with client.get(url) as page:
                token = page.cookies["dedale_session"].value
            headers = {"Cookie": f"dedale_session={token}"}
            async with client.ws_connect(url + "ws", headers=headers) as ws:
                await ws.receive(timeout=30)  # the game's first screen
                os.killpg(process.pid, signal.SIGINT)
                for _ in range(10_000):
                    message = await ws.receive(timeout=20)
                    if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                        return True
        return False

    try:
        wait_until_listening(process, port, log)
        closed = asyncio.run(scenario())
        code = process.wait(20)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)
    output = log.read_text(encoding="utf-8")
    assert closed and code == 0, output
    assert "Traceback" not in output and "KeyboardInterrupt" not in output
    assert output.rstrip().endswith("Server stopped.")
