"""textual-serve's server, for one book: a page of its own, a save folder per browser session,
a bounded number of games at once, and every process stopped when the server stops."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from aiohttp import WSMsgType, web
from aiohttp.web_runner import GracefulExit
from textual_serve.app_service import AppService
from textual_serve.server import Server

from dedale.errors import UsageError
from dedale.i18n import tr, translate
from dedale.web.guard import host_allowed, same_origin
from dedale.web.page import font_size, render_page
from dedale.web.sessions import COOKIE, COOKIE_MAX_AGE, SessionFolders, new_token, valid_token

log = logging.getLogger("dedale.web")
STOP_TIMEOUT = 3.0
"""Seconds a game process is given to quit when the server stops, before it is killed."""


@dataclass(frozen=True)
class ServedBook:
    """What the server plays: the book, its title and language, and ``dedale play``'s extra
    options for every game."""

    path: Path
    title: str
    lang: str
    play_options: tuple[str, ...] = ()


class BookServer(Server):
    """Serves one book; ``serve()`` runs until Ctrl-C (or SIGTERM)."""

    def __init__(
        self,
        book: ServedBook,
        *,
        host: str,
        port: int,
        folders: SessionFolders,
        max_games: int,
        say: Callable[[str], None] = print,
    ) -> None:
        super().__init__(command="", host=host, port=port, title=book.title)
        self.book = book
        self.folders = folders
        self.max_games = max_games
        self.say = say
        self.games: set[AppService] = set()
        self._stopping = False

    async def _make_app(self) -> web.Application:
        """textual-serve's routes, its static files served without a folder listing."""
        app = web.Application()
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    # ------------------------------------------------------------------ the page
    async def handle_index(self, request: web.Request) -> web.Response:  # type: ignore[override]
        """The page; a browser without a valid session cookie gets a new one."""
        if not host_allowed(request.host, self.host):
            raise web.HTTPMisdirectedRequest(text=self._wrong_host())
        token = request.cookies.get(COOKIE)
        html = render_page(
            title=self.book.title,
            lang=self.book.lang,
            websocket_url=f"{'wss' if request.secure else 'ws'}://{request.host}/ws",
            static_url="/static/",
            size=font_size(request.query.get("fontsize")),
        )
        response = web.Response(text=html, content_type="text/html", charset="utf-8")
        response.headers["Cache-Control"] = "no-store"
        if not valid_token(token):
            response.set_cookie(
                COOKIE, new_token(), max_age=COOKIE_MAX_AGE, httponly=True, samesite="Strict"
            )
        return response

    # ------------------------------------------------------------------ one game
    def command_for(self, folder: Path) -> str:
        """The shell command of one browser's game: ``dedale play`` with its save folder."""
        words = [sys.executable, "-m", "dedale", "play", str(self.book.path)]
        words += ["--save-dir", str(folder), *self.book.play_options]
        return "exec " + shlex.join(words)  # the shell becomes the game: one process to stop

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """A browser tab connects: run its game until the tab or the game goes."""
        if not host_allowed(request.host, self.host):
            raise web.HTTPMisdirectedRequest(text=self._wrong_host())
        if not same_origin(request.headers.get("Origin"), request.host):
            raise web.HTTPForbidden(
                text=translate(tr("This game opens from its own page only."), self.book.lang)
            )
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        refusal, folder = self._admit(request.cookies.get(COOKIE))
        if refusal is not None or folder is None:
            await websocket.send_bytes(f"\r\n  {refusal}\r\n".encode())
            await websocket.close()
            return websocket
        width = _size(request.query.get("width"), 80)
        height = _size(request.query.get("height"), 24)
        service = AppService(
            self.command_for(folder),
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
        )
        self.games.add(service)
        try:
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # noqa: BLE001 - one tab's failure never stops the server
            log.warning("%s", error)
        finally:
            await _stop(service)
            self.games.discard(service)
        return websocket

    def _wrong_host(self) -> str:
        text = tr(
            "This server answers on this machine's own address only: open "
            "http://127.0.0.1:{port}/ (or start it with --host).",
            port=self.port,
        )
        return translate(text, self.book.lang)

    def _admit(self, token: str | None) -> tuple[str | None, Path | None]:
        """(why the tab is turned away, or None; the session's save folder)."""
        lang = self.book.lang
        if len(self.games) >= self.max_games:
            text = tr(
                "Too many games are being played on this server at once ({limit}): "
                "try again later.",
                limit=self.max_games,
            )
            return translate(text, lang), None
        folder = self.folders.folder(token) if valid_token(token) else None
        if folder is None:
            text = tr(
                "This server keeps no saves for this browser (it takes cookies, and at most "
                "{limit} browsers): reload the page, or ask whoever runs the server.",
                limit=self.folders.limit,
            )
            return translate(text, lang), None
        return None, folder

    async def _process_messages(  # type: ignore[override]
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        """The browser's keys, sizes and focus, passed to the game (malformed ones ignored)."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
            except ValueError:
                continue
            if not isinstance(envelope, list) or len(envelope) < 1:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await app_service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                width, height = _size(data.get("width"), 80), _size(data.get("height"), 24)
                await app_service.set_terminal_size(width, height)
            elif kind == "ping":
                await websocket.send_json(["pong", data])
            elif kind == "blur":
                await app_service.blur()
            elif kind == "focus":
                await app_service.focus()

    # ------------------------------------------------------------------ start and stop
    async def on_startup(self, app: web.Application) -> None:
        """Say where the book is served and where the saves go."""
        lang = self.book.lang
        url = f"http://{_url_host(self.host)}:{self.port}/"
        self.say(
            translate(
                tr(
                    '"{title}" is served at {url}; Ctrl+C stops the server.',
                    title=self.book.title,
                    url=url,
                ),
                lang,
            )
        )
        self.say(
            translate(
                tr(
                    "Saves are kept in {folder}, one folder per browser.",
                    folder=str(self.folders.sessions),
                ),
                lang,
            )
        )

    async def on_shutdown(self, app: web.Application) -> None:
        """Every game is asked to quit, and killed if it does not in time."""
        await asyncio.gather(*(_stop(service) for service in list(self.games)))

    def request_exit(self) -> None:
        """Ctrl-C or SIGTERM: stop once (a second signal while stopping is ignored)."""
        if self._stopping:
            return
        self._stopping = True
        raise GracefulExit()

    def initialize_logging(self) -> None:
        """Warnings only, one plain line each (no access log)."""
        logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")

    def serve(self, debug: bool = False) -> None:
        """Run until stopped; a port in use or a host that cannot be listened on is a
        UsageError."""
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        for signal_number in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(signal_number, self.request_exit)
        try:
            web.run_app(
                self._make_app(),
                host=self.host,
                port=self.port,
                handle_signals=False,
                loop=loop,
                print=None,
                access_log=None,
                shutdown_timeout=STOP_TIMEOUT + 2,
            )
        except OSError as error:
            unknown_host = isinstance(error, socket.gaierror) or (error.errno or 0) < 0
            if unknown_host:
                hint = tr("--host must be a name or an address of this machine")
            else:
                hint = tr("is another server using this port? Choose another one with --port")
            raise UsageError(
                tr(
                    "cannot listen on {host} port {port}: {reason}",
                    host=self.host,
                    port=self.port,
                    reason=_reason(error),
                ),
                hint=hint,
            ) from None


async def _stop(service: AppService) -> None:
    """Ask a game to quit; kill its process if it has not within STOP_TIMEOUT seconds."""
    try:
        await asyncio.wait_for(service.stop(), STOP_TIMEOUT)
    except (TimeoutError, OSError, RuntimeError):
        pass
    process = getattr(service, "_process", None)
    if process is not None and process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(process.wait(), STOP_TIMEOUT)


def _reason(error: OSError) -> str:
    """The system's words for a failed listen (``Address already in use``)."""
    if error.errno and error.errno > 0:
        return os.strerror(error.errno)
    return error.strerror or str(error)


def _size(value: object, default: int) -> int:
    """A terminal width or height from the browser, kept within 10..500."""
    try:
        number = int(value)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        return default
    return min(max(number, 10), 500)


def _url_host(host: str) -> str:
    """The host as written in a URL (an IPv6 address between brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def extra_play_options(lang: str | None, no_odds: bool, turn_to: bool | None) -> Sequence[str]:
    """``dedale play`` options every game of the server gets."""
    options: list[str] = []
    if lang:
        options += ["--lang", lang]
    if no_odds:
        options.append("--no-odds")
    if turn_to is not None:
        options.append("--turn-to" if turn_to else "--no-turn-to")
    return options
