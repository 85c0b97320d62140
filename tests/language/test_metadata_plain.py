"""book.yaml's ``key: value`` lines read without ruamel.yaml (language/metadata_plain.py,
issue 14.11): whenever the plain reader takes a text, it reads what ruamel.yaml's
round-trip loader reads (keys, values and their types, positions); the sample books'
metadata is the same either way; a validation of such a book imports no ruamel module."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from dedale.errors import DedaleError
from dedale.language import metadata
from dedale.language.metadata_plain import MAX_CHARS, plain_mapping
from dedale.rules.yamlsafe import parse_yaml
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]


def _ruamel(text: str):
    return parse_yaml(text, "book.yaml", DedaleError)


def _same_as_ruamel(text: str) -> bool:
    """Whether the plain reader took ``text``; when it did, the reading is ruamel's."""
    found = plain_mapping(text)
    if found is None:
        return False
    expected = _ruamel(text)
    assert list(found) == list(expected)
    for key in expected:
        assert type(found[key]) is type(expected[key]), (text, key)
        assert found[key] == expected[key], (text, key)
        assert found.lc.key(key) == tuple(expected.lc.key(key)), (text, key)
        assert found.lc.value(key) == tuple(expected.lc.value(key)), (text, key)
    return True


EDGES = [
    "title: Le Puits des Ombres\nstart: 1\n",
    "title:   Spaces around   \nauthor: A. B.\n",
    "# a comment\n\ntitle: X\n\n# another\nlanguage: fr\n",
    "titre: L'île aux ombres\nauteur: Moi, et d'autres (2024)\nrègles: df-classic\n",
    "title: Hé, où va-t-on? Là! (1/2) +1\n",
    "title: x\nstart: 0\n",
    "title: x\nstart: 123456789012345678\n",
    "title: x\nstart: 0123\n",  # a ScalarInt for ruamel: left to it
    "title: x\nstart: -1\n",
    "title: x\nstart: 1.5\n",
    "title: x\nstart: 1e3\n",
    "title: yes\n",
    "title: No\n",
    "title: null\n",
    "title: ~\n",
    "title: true\n",
    "True: x\n",
    "title: x\ntitle: y\n",  # a key twice: ruamel's error
    "title: x # comment\n",
    "title: 'quoted'\n",
    'title: "quoted"\n',
    "title: a: b\n",
    "title:\n",
    "title: x\n  more\n",
    "  title: x\n",
    "title: x\r\n",
    "\ufefftitle: x\n",
    "title:\tx\n",
    "title: [a, b]\n",
    "title: x\nauthor:\n  - a\n",
    "title: 2024-01-01\n",
    "---\ntitle: x\n",
    "title: x\n...\n",
    "",
    "\n\n",
    "# only a comment\n",
    "title: ²x\n",
    "tit-le: x\n_key: y\n",
    "title: x\u2028y\n",
    f"title: {'x' * MAX_CHARS}\n",
]


@pytest.mark.parametrize("text", EDGES)
def test_edge_texts_are_read_as_ruamel_reads_them_or_left_to_it(text):
    try:
        _same_as_ruamel(text)
    except DedaleError:
        assert plain_mapping(text) is None  # what ruamel refuses is never taken


def test_the_plain_reader_takes_the_common_files():
    assert _same_as_ruamel(EDGES[0]) and _same_as_ruamel(EDGES[3])
    for text in EDGES[7:20]:
        assert plain_mapping(text) is None, text


PIECES = [
    "title", "start", "auteur", "x", "yes", "No", "null", "1", "0", "007", "12", "-3", "1.5",
    "é", "L'île", "a b", "a  b", "a, b", "a: b", "a #b", "a#b", "(x)", "x!", "?x", "-x", "x-",
    "’", "/", "+", "~", "", " ", "  ", "\t", "'q'", '"q"', "[a]", "{a}", "&a", "*a", "!t",
    "%", "@", "`", "|", ">", "2024-01-01", "nan", "inf", "_x", "ª", "²",
]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(PIECES),
            st.sampled_from([":", ": ", ":  ", " : ", ""]),
            st.lists(st.sampled_from(PIECES), max_size=3),
            st.sampled_from(["", " ", "  ", "#", " # c", "\n  more"]),
        ),
        min_size=1,
        max_size=5,
    ),
    st.sampled_from(["", "# c\n", "\n", "---\n"]),
)
def test_random_texts_are_read_as_ruamel_reads_them(lines, head):
    text = head + "".join(
        f"{key}{colon}{' '.join(value)}{tail}\n" for key, colon, value, tail in lines
    )
    try:
        _same_as_ruamel(text)
    except DedaleError:
        assert plain_mapping(text) is None


def test_random_plain_files_are_taken_and_read_as_ruamel_reads_them():
    """Texts made only of what the plain reader takes: it takes each one."""
    rng = random.Random(14)
    words = ["Le", "puits", "des", "ombres", "L'île", "d'or", "A.", "B,", "(2)", "x-y", "été"]
    taken = 0
    for _ in range(300):
        keys = rng.sample(["title", "titre", "author", "language", "start", "ruleset"], 4)
        lines = []
        for key in keys:
            value = (
                str(rng.randint(0, 10**6))
                if rng.random() < 0.3
                else " ".join(rng.choice(words[:3]) + "" for _ in range(rng.randint(1, 3)))
                + " " * rng.randint(0, 2)
            )
            lines.append(f"{key}:{' ' * rng.randint(1, 3)}{value}")
            if rng.random() < 0.2:
                lines.append(rng.choice(["", "# note", "   "]))
        taken += _same_as_ruamel("\n".join(lines) + "\n")
    assert taken == 300


def _sample_metadata_files() -> list[Path]:
    return sorted((ROOT / "books").glob("*/book.yaml")) + sorted(
        (ROOT / "tests").rglob("book.yaml")
    )


@pytest.mark.parametrize("path", _sample_metadata_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_metadata_of_the_books_is_the_same_either_way(path, monkeypatch):
    text = path.read_text("utf-8")
    errors_plain: list = []
    found = metadata.parse_meta(text, "book.yaml", errors_plain)
    monkeypatch.setattr(metadata, "plain_mapping", lambda text: None)  # ruamel's reading
    errors_ruamel: list = []
    expected = metadata.parse_meta(text, "book.yaml", errors_ruamel)
    assert repr(found) == repr(expected)
    assert [repr(e) for e in errors_plain] == [repr(e) for e in errors_ruamel]


def test_a_plain_book_is_validated_without_ruamel(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (book / "book.yaml").write_text("titre: Essai\nlangue: fr\nstart: 1\n", "utf-8")
    (book / "p.dd").write_text("§ 1\nVous gagnez.\n> victoire\n", "utf-8")
    code = (
        "import sys, json\n"
        "from dedale.cli import main\n"
        f"code = main(['validate', '--runs', '0', '--format', 'json', {str(book)!r}])\n"
        "print(json.dumps([m for m in sys.modules if m.startswith('ruamel')]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert json.loads(done.stdout.splitlines()[-1]) == []
    assert '"errors": 0' in done.stdout
