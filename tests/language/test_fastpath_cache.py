"""The fast paths' terminal patterns kept between runs (language/fastpath_cache.py): the same
sources as the parser's, the parser not built when every line takes a fast path, and a
cache file that is corrupt, forged, too large or unwritable ignored (built again)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from dedale.language import fastpath, fastpath_cache
from dedale.language.parser import grammar_text

ROOT = Path(__file__).resolve().parents[2]
NAMES = (*fastpath.TERMINALS, fastpath.KEYWORD)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("DEDALE_NO_CACHE", raising=False)
    fastpath._patterns.cache_clear()
    yield tmp_path / "dedale"
    fastpath._patterns.cache_clear()


def _sources(builds: list[int]) -> dict[str, str]:
    def build() -> dict[str, str]:
        builds.append(1)
        return fastpath._terminal_sources()

    return fastpath_cache.sources(grammar_text(), NAMES, build)


def test_the_kept_sources_are_the_parsers(cache):
    builds: list[int] = []
    first = _sources(builds)
    assert first == fastpath._terminal_sources() and builds == [1]
    assert _sources(builds) == first and builds == [1]  # read back, not built
    (kept,) = cache.glob("fastpath-*.json")
    assert json.loads(kept.read_text("utf-8").partition("\n")[2]) == first


@pytest.mark.parametrize(
    "damage",
    ["cut", "forged", "not json", "other names", "not a string", "bad regex", "too large"],
)
def test_a_damaged_file_is_ignored_and_written_again(cache, damage):
    builds: list[int] = []
    good = _sources(builds)
    (kept,) = cache.glob("fastpath-*.json")
    header, _, body = kept.read_text("utf-8").partition("\n")
    found = json.loads(body)
    if damage == "cut":
        kept.write_text(header + "\n" + body[: len(body) // 2], "utf-8")
    elif damage == "forged":  # a body changed without its checksum
        found["NAME"] = "x"
        kept.write_text(header + "\n" + json.dumps(found, sort_keys=True), "utf-8")
    elif damage == "not json":
        kept.write_text("{{{", "utf-8")
    else:  # well-formed files with a matching checksum, and a wrong content
        if damage == "other names":
            found["EXTRA"] = "x"
        elif damage == "not a string":
            found["NAME"] = 3
        elif damage == "bad regex":
            found["NAME"] = "(unclosed"
        else:
            found["NAME"] = "x" * fastpath_cache.MAX_BYTES
        body = json.dumps(found, sort_keys=True)
        head = json.loads(header)
        head["body"] = fastpath_cache._sha(body)
        kept.write_text(json.dumps(head) + "\n" + body, "utf-8")
    assert _sources(builds) == good and builds == [1, 1]  # built again
    assert _sources(builds) == good and builds == [1, 1]  # and kept again


def test_the_fast_paths_patterns_of_a_bad_regex_are_built_again(cache):
    """fastpath compiles the kept sources once, into its patterns (not once more to check
    them): a kept source that does not compile makes it build them from the parser, and
    the file is written again."""
    expected = {name: found.pattern for name, found in fastpath._patterns().items()}
    (kept,) = cache.glob("fastpath-*.json")
    header, _, body = kept.read_text("utf-8").partition("\n")
    found = json.loads(body)
    found["NAME"] = "(unclosed"
    body = json.dumps(found, sort_keys=True)
    head = json.loads(header)
    head["body"] = fastpath_cache._sha(body)
    kept.write_text(json.dumps(head) + "\n" + body, "utf-8")
    fastpath._patterns.cache_clear()
    assert {name: found.pattern for name, found in fastpath._patterns().items()} == expected
    assert json.loads(kept.read_text("utf-8").partition("\n")[2]) == fastpath._terminal_sources()


def test_no_cache_folder_still_gives_the_sources(tmp_path, monkeypatch):
    monkeypatch.setenv("DEDALE_NO_CACHE", "1")
    builds: list[int] = []
    assert _sources(builds) == fastpath._terminal_sources()
    assert _sources(builds) and builds == [1, 1]  # nothing kept


def test_a_book_of_fast_lines_does_not_build_the_parser(tmp_path):
    book = tmp_path / "book"
    book.mkdir()
    (book / "book.yaml").write_text("title: T\nruleset: df-classic\nstart: 1\n", "utf-8")
    (book / "p.dd").write_text(
        "§ 1\nYou enter.\n> set codeword AUBE\n-> 2 Go on\n-> 3 (if codeword AUBE) Knock\n"
        "§ 2\nA goblin.\n> fight\n> enemy GOBLIN SKILL 5 STAMINA 4\n> win -> 3\n"
        "§ 3\nThe end.\n> victory\n",
        "utf-8",
    )
    code = (
        "import sys\n"
        "from pathlib import Path\n"
        "from dedale.language import load_book\n"
        "from dedale.language.parser import book_parser\n"
        f"load_book(Path({str(book)!r}))\n"
        "print(book_parser.cache_info().currsize)\n"
    )
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    runs = [
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
        for _ in range(2)
    ]
    assert [run.stdout.strip() for run in runs] == ["1", "0"], runs[-1].stderr  # then cached
