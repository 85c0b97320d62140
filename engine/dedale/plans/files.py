"""Write a plan file atomically, making its missing folders (``dedale solve --plan`` and
``dedale play --record`` both write plans, usually into a book's not yet made ``tests/``)."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


def write_plan_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` to ``path``: its missing parent folders are made, the text goes to a
    temporary file in the same folder, then replaces the target at once (a reader never
    sees half a plan). Raises :class:`OSError` when the path cannot be written."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:  # a file stands where a folder should: say so, not "File exists"
        raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(folder)) from None
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".plan-", suffix=".tmp")
    try:
        os.chmod(temporary, _mode(target))  # mkstemp's 0600 would hide the plan from others
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


def _mode(target: Path) -> int:
    """The permissions the plan keeps (an existing file's) or gets (0666 less the umask)."""
    try:
        return target.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0o022)
        os.umask(mask)
        return 0o666 & ~mask
