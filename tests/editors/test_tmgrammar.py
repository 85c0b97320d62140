"""The TextMate grammar of .dd files (editors/vscode/syntaxes/): generated from the
language's keyword tables, and run under node with vscode-textmate + vscode-oniguruma (VS
Code's own engine) on every sample book: the scopes of the bundled books are snapshotted,
and every book's headers, choices, rule lines and comments get their scopes."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

import pytest

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
        _npm_ci()
    done = subprocess.run(
        [node, str(TOOL / "tokenize.js"), str(GRAMMAR), *map(str, files)],
        capture_output=True, text=True, timeout=120, check=False, cwd=TOOL,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    return {Path(name): lines for name, lines in data.items()}


def _npm_ci() -> None:
    """Install the tokenizer's two packages from tools/tmgrammar's lock file (what .ci/run
    does), so that README's test command passes on a fresh machine with node and npm."""
    npm = shutil.which("npm")
    if npm is None:
        raise AssertionError("vscode-textmate is not installed: run `npm ci` in tools/tmgrammar")
    done = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"],
        capture_output=True, text=True, timeout=600, check=False, cwd=TOOL,
    )  # fmt: skip
    assert done.returncode == 0, f"npm ci failed in tools/tmgrammar: {done.stderr}"


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


_spec = importlib.util.spec_from_file_location("gen_tmgrammar", ROOT / "tools/gen_tmgrammar.py")
gen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen)

BOOKS = sorted(path for path in (ROOT / "books").glob("*/") if (path / "book.yaml").exists())
ALL_FILES = sorted(ROOT.glob("books/*/*.dd")) + sorted(ROOT.glob("tests/books_extra/**/*.dd"))
needs_node = pytest.mark.skipif(node_program() is None, reason="node is not installed")


def test_the_committed_grammar_is_generated_from_the_keyword_tables():
    assert GRAMMAR.read_text(encoding="utf-8") == gen.render(), "run tools/gen_tmgrammar.py"


def test_every_keyword_table_word_is_in_the_grammar():
    import re

    pattern = re.compile(gen.keyword_pattern())
    for word in (*gen.DIRECTIVE_WORDS, *gen.CHOICE_OPTION_WORDS, *gen.OUTCOMES, *gen.MODES):
        assert pattern.fullmatch(word), word
    for french in ("réussite critique", "ÉCHEC", "mot-code", "visité", "Défaite", "grisé"):
        assert pattern.fullmatch(french), french


def test_the_vscode_extension_declares_the_grammar():
    manifest = json.loads((ROOT / "editors/vscode/package.json").read_text(encoding="utf-8"))
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar["scopeName"] == "source.dedale"
    assert (ROOT / "editors/vscode" / grammar["path"]).resolve() == GRAMMAR
    (language,) = manifest["contributes"]["languages"]
    assert language["extensions"] == [".dd"]
    config = ROOT / "editors/vscode" / language["configuration"]
    assert json.loads(config.read_text(encoding="utf-8"))["comments"]["lineComment"] == "//"
    assert "vscode-languageclient" in manifest["dependencies"]
    assert "dedale" in (ROOT / "editors/vscode/extension.js").read_text(encoding="utf-8")


@needs_node
@pytest.mark.parametrize("book", BOOKS, ids=[path.name for path in BOOKS])
def test_scopes_of_each_bundled_book(book, snapshot):
    files = sorted(book.glob("*.dd"))
    tokens = tokenize(files)
    text = "".join(
        f"== {path.name}\n" + render(tokens[path], path.read_text("utf-8").split("\n"))
        for path in files
    )
    assert text == snapshot


def scopes_on(tokens, kind: str) -> set[str]:
    return {scope for _, scopes in tokens for scope in scopes if kind in scope}


@needs_node
def test_every_sample_line_gets_its_scope():
    tokens = tokenize(ALL_FILES)
    for path in ALL_FILES:
        lines = path.read_text(encoding="utf-8").split("\n")
        in_front = lines[0].strip() == "---"
        for number, (line, found) in enumerate(zip(lines, tokens[path], strict=True), 1):
            where = f"{path.relative_to(ROOT)}:{number}: {line}"
            stripped = line.strip()
            if in_front:
                in_front = not (number > 1 and stripped == "---")
                assert scopes_on(found, "front-matter"), where
            elif stripped.startswith("//"):
                assert scopes_on(found, "comment.line"), where
            elif stripped[:1] in ("§", "#") and stripped[1:].strip()[:1].isdigit():
                assert scopes_on(found, "entity.name.section.paragraph-number"), where
            elif stripped.startswith(("->", "→")):
                assert scopes_on(found, "meta.choice"), where
            elif stripped.startswith(">"):
                assert scopes_on(found, "meta.directive"), where
                words = stripped[1:].split()
                if words and words[0].lower() in ("fight", "combat", "death", "mort", "victory",
                                                  "victoire", "enemy", "ennemi"):  # fmt: skip
                    assert found[2][1][-1] == "keyword.control.dedale", where


@needs_node
def test_french_and_english_keywords_and_interpolation(tmp_path: Path):
    book = tmp_path / "two-languages.dd"
    book.write_text(
        "§ 1 la porte\n"
        "Vous avez {ENDURANCE} points de **courage**, {nom}.\n"
        "> tentez votre chance\n"
        "> chanceux -> 2   // la bonne porte\n"
        "> échec : perdez 2 ENDURANCE\n"
        "-> 3 (si mot-code PANTHÈRE, grisé) Dire le mot de passe\n"
        "-> 4 (if SKILL >= 10 and not visited 2) Jump the gap\n"
        "> si mot-code LOUP ou visité 3 -> 7\n"
        "> gagnez 12 or\n",
        encoding="utf-8",
    )
    lines = tokenize([book])[book]
    scoped = [{t.strip(): scopes[-1] for t, scopes in line if t.strip()} for line in lines]
    assert scoped[0]["1"] == "entity.name.section.paragraph-number.dedale"
    assert scoped[0]["la porte"] == "entity.name.tag.label.dedale"
    assert scoped[1]["ENDURANCE"] == "variable.other.interpolation.dedale"
    assert scoped[1]["nom"] == "variable.other.interpolation.dedale"
    assert scoped[2]["tentez"] == scoped[2]["chance"] == "keyword.control.dedale"
    assert scoped[3]["2"] == "constant.numeric.paragraph.dedale"
    assert scoped[3]["//"] == "punctuation.definition.comment.dedale"
    assert scoped[4]["échec"] == scoped[4]["perdez"] == "keyword.control.dedale"
    assert scoped[4]["ENDURANCE"] == "variable.other.constant.stat.dedale"
    assert (
        scoped[5]["si"] == scoped[5]["mot-code"] == scoped[5]["grisé"] == ("keyword.control.dedale")
    )
    assert scoped[5]["Dire le mot de passe"] == "string.unquoted.choice-text.dedale"
    assert scoped[6][">="] == "keyword.operator.comparison.dedale"
    assert scoped[6]["visited"] == "keyword.control.dedale"
    assert scoped[6]["and"] == scoped[6]["not"] == "keyword.operator.logical.dedale"
    assert scoped[7]["si"] == "keyword.control.dedale"
    assert scoped[7]["ou"] == "keyword.operator.logical.dedale"  # in a condition: an operator
    assert scoped[7]["7"] == "constant.numeric.paragraph.dedale"
    assert scoped[8]["or"] == "meta.directive.dedale"  # gold, in French: not an operator
