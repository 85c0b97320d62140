"""Run the TextMate grammar on .dd files under node (vscode-textmate + vscode-oniguruma)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "tmgrammar"
GRAMMAR = ROOT / "editors" / "vscode" / "syntaxes" / "dedale.tmLanguage.json"

Token = tuple[str, list[str]]


def node_program() -> str | None:
    return shutil.which("node")


def tokenize(files: list[Path]) -> dict[Path, list[list[Token]]]:
    """The tokens of each line of each file, with their scopes (outermost first)."""
    node = node_program()
    assert node is not None
    if not (TOOL / "node_modules" / "vscode-textmate").is_dir():
        raise AssertionError("vscode-textmate is not installed: run `npm ci` in tools/tmgrammar")
    done = subprocess.run(
        [node, str(TOOL / "tokenize.js"), str(GRAMMAR), *map(str, files)],
        capture_output=True, text=True, timeout=120, check=False, cwd=TOOL,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    return {Path(name): lines for name, lines in data.items()}


def short(scope: str) -> str:
    return scope.removesuffix(".dedale")


def render(lines: list[list[Token]], source: list[str]) -> str:
    """One line per source line that holds more than plain prose: ``12| token‹scope› ...``
    (the innermost scope of each token; blanks left out)."""
    out = []
    for number, tokens in enumerate(lines, 1):
        parts = [f"{text.strip()}‹{short(scopes[-1])}›" for text, scopes in tokens if text.strip()]
        if any(len(scopes) > 1 for _, scopes in tokens):
            out.append(f"{number:4}| " + " ".join(parts))
        elif source[number - 1].strip():
            out.append(f"{number:4}| prose")
    return "\n".join(out) + "\n"
