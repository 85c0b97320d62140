"""Findings -> LSP diagnostics, file by file, in the book's language, with their fixes."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

from dedale.i18n import tr, translate
from dedale.lsp.fixes import fix_for
from dedale.validator.findings import Finding

SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}
_TOKEN = re.compile(r"\S+")
MAX_PER_FILE = 1_000


def by_file(
    findings: list[Finding], fallback: Path, lines_of: Callable[[Path], list[str]], lang: str
) -> dict[Path, list[tuple[Finding, int, int, int, int, dict | None]]]:
    """Each finding placed in its file: (finding, line, start, end line, end, fix),
    0-based code points. Findings with no place go to ``fallback`` (book.yaml)."""
    result: dict[Path, list] = {}
    for item in findings:
        span = item.span
        path = _path(span.file) if span is not None else None
        if path is None:
            path = fallback
        lines = lines_of(path)
        line = max((span.line if span else 1) - 1, 0)
        start = max((span.column if span else 1) - 1, 0)
        text = lines[line] if line < len(lines) else ""
        if span is not None and span.end_line and span.end_column:
            end_line, end = span.end_line - 1, span.end_column - 1
        else:
            word = _TOKEN.match(text, start) if start < len(text) else None
            end_line, end = line, word.end() if word else len(text)
        if (end_line, end) <= (line, start):
            end_line, end = line, max(len(text), start)
        bucket = result.setdefault(path, [])
        if len(bucket) < MAX_PER_FILE:
            bucket.append((item, line, start, end_line, end, fix_for(item, lines, lang)))
    return result


def _path(file: str) -> Path | None:
    try:
        return Path(file).resolve()
    except (OSError, ValueError, RuntimeError):
        return None


def message_of(item: Finding, lang: str) -> str:
    text = translate(item.message, lang)
    if item.hint:
        text += "\n" + translate(tr("hint: {hint}", hint=item.hint), lang)
    return text


def diagnostic(item: Finding, where: types.Range, fix: dict | None, lang: str) -> types.Diagnostic:
    return types.Diagnostic(
        range=where,
        message=message_of(item, lang),
        severity=SEVERITY.get(item.severity, types.DiagnosticSeverity.Warning),
        code=item.code,
        source="dedale",
        data=fix,
    )
