"""Browser sessions of ``dedale serve``: a random token in a cookie, one save folder per token.

The token is made by the server and checked against a strict pattern before it names a
folder, so a browser cannot reach a folder outside the data folder. The number of session
folders is bounded: past the limit a new browser is turned away (its saves would have nowhere
to go) while the known ones keep playing.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

COOKIE = "dedale_session"
"""The cookie that names a browser's session."""
COOKIE_MAX_AGE = 365 * 24 * 3600
"""The cookie lasts a year: a player finds their saves again after closing the browser."""
_TOKEN = re.compile(r"[0-9a-f]{32}")


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/dedale/web``, else ``~/.local/share/dedale/web``."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "dedale" / "web"


def new_token() -> str:
    """A fresh session token (128 random bits, hexadecimal)."""
    return secrets.token_hex(16)


def valid_token(token: str | None) -> bool:
    """Whether ``token`` is one the server could have made (and so a safe folder name)."""
    return bool(token) and _TOKEN.fullmatch(token or "") is not None


@dataclass
class SessionFolders:
    """The save folders of the browser sessions: ``ROOT/sessions/TOKEN``."""

    root: Path
    limit: int = 1000

    @property
    def sessions(self) -> Path:
        return self.root / "sessions"

    def folder(self, token: str) -> Path | None:
        """The save folder of a session (created, private to the server's user); None when
        the token is malformed or the session is new and the limit is reached."""
        if not valid_token(token):
            return None
        folder = self.sessions / token
        try:
            if not folder.is_dir():
                if self.count() >= self.limit:
                    return None
                folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:  # the disk is full, the folder was made read-only...: no saves
            return None
        return folder

    def prepare(self) -> str | None:
        """Make the sessions folder; the system's reason when it cannot be written in."""
        try:
            self.sessions.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError as error:
            return error.strerror or str(error)
        if not os.access(self.sessions, os.W_OK | os.X_OK):
            return os.strerror(13)
        return None

    def count(self) -> int:
        """How many session folders there are (counting stops past the limit)."""
        if not self.sessions.is_dir():
            return 0
        found = 0
        with os.scandir(self.sessions) as entries:
            for entry in entries:
                found += entry.is_dir(follow_symlinks=False)
                if found > self.limit:
                    break
        return found
