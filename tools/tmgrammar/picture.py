"""Render the highlighting of a .dd file as the editor shows it: docs/images/highlighting.svg.

    python tools/tmgrammar/picture.py [FILE.dd]

The file (by default sample.dd beside this script) is tokenized by the real TextMate grammar
under node (tokenize.js: vscode-textmate + vscode-oniguruma, after ``npm ci`` here), each
scope is given the colour a dark editor theme gives it, and rich exports the lines as SVG.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

from rich.console import Console
from rich.text import Text

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
GRAMMAR = ROOT / "editors" / "vscode" / "syntaxes" / "dedale.tmLanguage.json"
OUT = ROOT / "docs" / "images" / "highlighting.svg"

THEME = [  # first matching scope prefix wins, innermost scope first
    ("comment", "italic #6a9955"),
    ("punctuation.definition.comment", "italic #6a9955"),
    ("entity.name.section", "bold #4fc1ff"),
    ("punctuation.definition.heading", "bold #4fc1ff"),
    ("entity.name.tag", "#4ec9b0"),
    ("keyword.operator.arrow", "bold #d4d4d4"),
    ("keyword.operator.logical", "#c586c0"),
    ("keyword.operator", "#d4d4d4"),
    ("keyword.control", "#c586c0"),
    ("constant.numeric.paragraph", "bold #b5cea8"),
    ("constant.numeric", "#b5cea8"),
    ("variable.other.constant", "#9cdcfe"),
    ("variable.other.interpolation", "#dcdcaa"),
    ("punctuation.definition.interpolation", "#dcdcaa"),
    ("string.unquoted.choice-text", "#ce9178"),
    ("markup.bold", "bold #d4d4d4"),
    ("markup.italic", "italic #d4d4d4"),
    ("punctuation.definition.directive", "bold #569cd6"),
]


def style_of(scopes: list[str]) -> str:
    for scope in reversed(scopes):
        for prefix, style in THEME:
            if scope.startswith(prefix):
                return style
    return "#d4d4d4"


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else HERE / "sample.dd"
    node = shutil.which("node")
    if node is None:
        print("node is not installed", file=sys.stderr)
        return 1
    done = subprocess.run(
        [node, str(HERE / "tokenize.js"), str(GRAMMAR), str(source)],
        capture_output=True, text=True, check=True, cwd=HERE, timeout=120,
    )  # fmt: skip
    (lines,) = json.loads(done.stdout).values()
    console = Console(
        record=True, width=92, force_terminal=True, color_system="truecolor", file=io.StringIO()
    )
    for tokens in lines:
        text = Text()
        for piece, scopes in tokens:
            text.append(piece, style=style_of(scopes))
        console.print(text, soft_wrap=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    console.save_svg(str(OUT), title=f"{source.name} — Dédale highlighting")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
