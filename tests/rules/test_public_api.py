"""The rules core's public API: sorted, importable, documented."""

from __future__ import annotations

import ast
from pathlib import Path

import dedale.rules as rules


def test_all_is_sorted_and_importable():
    assert rules.__all__ == sorted(rules.__all__)
    for name in rules.__all__:
        assert getattr(rules, name) is not None


def test_public_functions_have_docstrings():
    for name in rules.__all__:
        item = getattr(rules, name)
        if callable(item):
            assert item.__doc__, name


def _code_strings(source: str) -> set[str]:
    """Every string constant of a module except docstrings."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    }  # fmt: skip


def test_no_ruleset_or_class_name_in_python():
    # "d20" and "reliques" are also the names of two fight procedures (mechanisms chosen by
    # the YAML key fight.procedure), so only the other names are searched for.
    folder = Path(rules.__file__).parent
    names = {"df-classic", "df24", "df48.5", "Mercenaire", "Baroudeur", "Scientifique"}
    for source in folder.glob("*.py"):
        found = _code_strings(source.read_text(encoding="utf-8")) & names
        assert not found, (source.name, found)
