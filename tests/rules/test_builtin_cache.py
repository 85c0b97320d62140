"""The cache of the parsed built-in rulesets (dedale.rules.builtin_cache, issue 14.11): the
same trees and rulesets as the YAML gives, and a cache file that is corrupt, stale, cut
short, too large or cannot be written is done without, never trusted."""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path

import pytest
from dedale.errors import RulesetError
from dedale.rules import builtin_cache, builtin_names, load_ruleset, loader, yamltree


def _text(name: str) -> str:
    return resources.files("dedale.rules").joinpath("rulesets", f"{name}.yaml").read_text("utf-8")


def _parsed(name: str) -> yamltree.YNode:
    return yamltree.load_yaml_text(_text(name), f"<builtin>/{name}.yaml")


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """A fresh cache folder, and no tree kept in memory from an earlier test."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("DEDALE_NO_CACHE", raising=False)
    loader._builtin_tree.cache_clear()
    yield tmp_path
    loader._builtin_tree.cache_clear()


def _cache_files(home: Path, name: str) -> list[Path]:
    return sorted((home / "dedale").glob(f"ruleset-{name}-*.json"))


def _fresh(name: str) -> yamltree.YNode | None:
    loader._builtin_tree.cache_clear()
    return loader._builtin_tree(name)


def _no_yaml(monkeypatch) -> None:
    """Fail the test if a built-in ruleset's YAML is parsed (the cache must answer)."""

    def refuse(text, shown):
        raise AssertionError(f"{shown} parsed: the cache was not used")

    monkeypatch.setattr(loader, "load_yaml_text", refuse)


@pytest.mark.parametrize("name", builtin_names())
def test_the_cached_tree_is_the_parsed_tree(cache_home, monkeypatch, name):
    parsed = _parsed(name)
    assert _fresh(name) == parsed  # parsed, and written to the cache
    load_ruleset(name)  # and the ruleset it extends, if any
    assert len(_cache_files(cache_home, name)) == 1
    _no_yaml(monkeypatch)
    cached = _fresh(name)
    assert cached == parsed  # values, positions (file:line:column) and the keys' positions
    assert cached.plain() == parsed.plain()
    from_cache = load_ruleset(name)
    monkeypatch.setenv("DEDALE_NO_CACHE", "1")
    monkeypatch.setattr(loader, "load_yaml_text", yamltree.load_yaml_text)
    assert _fresh(name) == parsed
    assert load_ruleset(name) == from_cache


def test_a_ruleset_that_extends_another_reads_both_from_the_cache(cache_home, monkeypatch):
    expected = load_ruleset("df24", {"fight": {"damage": {"to_hero": 3}}})
    _no_yaml(monkeypatch)
    loader._builtin_tree.cache_clear()
    assert load_ruleset("df24", {"fight": {"damage": {"to_hero": 3}}}) == expected


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: b"not json\x80\x04",
        lambda raw: raw[: len(raw) // 2],  # cut short
        lambda raw: raw.split(b"\n", 1)[0],  # the header alone
        lambda raw: raw.replace(b'"format": 1', b'"format": 99'),
        lambda raw: raw.replace(b'"name": "df-classic"', b'"name": "df24"'),
        lambda raw: raw.replace(b"SKILL", b"SKULL"),  # changed after it was written
        lambda raw: b"[]\n[]",
    ],
    ids=["garbage", "cut", "header-only", "format", "name", "changed-tree", "not-a-header"],
)
def test_a_corrupt_cache_is_ignored_and_written_again(cache_home, monkeypatch, damage):
    expected = _fresh("df-classic")
    (cache,) = _cache_files(cache_home, "df-classic")
    good = cache.read_bytes()
    cache.write_bytes(damage(good))
    assert _fresh("df-classic") == expected
    assert cache.read_bytes() == good  # written again, whole


def _forged(cache: Path, tree: object) -> None:
    """A cache file whose checksums are right but whose tree was never written by Dédale."""
    header = json.loads(cache.read_bytes().split(b"\n", 1)[0])
    body = json.dumps(tree).encode()
    header["tree_sha256"] = hashlib.sha256(body).hexdigest()
    cache.write_bytes(json.dumps(header).encode() + b"\n" + body)


@pytest.mark.parametrize(
    "tree",
    [
        ["m", 1, 1, [["name", 1, 1, ["s", 1, 7, {"a": 1}]]]],  # a mapping as a scalar
        ["m", 0, 1, []],  # line 0
        ["m", 1, 1, [["a", 1, 1, ["s", 1, 4, 1]], ["a", 2, 1, ["s", 2, 4, 2]]]],  # key twice
        ["m", 1, 1, [[1, 1, 1, ["s", 1, 4, 1]]]],  # a key that is not text
        ["x", 1, 1, []],  # no such kind
        ["l", True, 1, []],  # a position that is not a number
        ["s", 1, 1],  # too short
        "text",
    ],
)
def test_a_forged_tree_is_refused(cache_home, tree):
    expected = _fresh("df-classic")
    (cache,) = _cache_files(cache_home, "df-classic")
    _forged(cache, tree)
    assert builtin_cache.load("df-classic", _text("df-classic"), "x.yaml") is None
    assert _fresh("df-classic") == expected


def test_a_well_formed_forged_tree_still_goes_through_the_schema(cache_home):
    _fresh("df-classic")
    (cache,) = _cache_files(cache_home, "df-classic")
    _forged(cache, ["m", 1, 1, [["stats", 3, 1, ["s", 3, 8, "nonsense"]]]])
    loader._builtin_tree.cache_clear()
    with pytest.raises(RulesetError) as raised:
        load_ruleset("df-classic")
    assert raised.value.span.file == "<builtin>/df-classic.yaml"  # an error, not a crash


def test_a_tree_larger_than_the_node_budget_is_refused(cache_home, monkeypatch):
    _fresh("df-classic")
    (cache,) = _cache_files(cache_home, "df-classic")
    monkeypatch.setattr(builtin_cache.limits, "MAX_YAML_NODES", 10)
    assert builtin_cache.load("df-classic", _text("df-classic"), "x.yaml") is None


def test_a_cache_file_too_large_is_not_read(cache_home, monkeypatch):
    expected = _fresh("df-classic")
    monkeypatch.setattr(builtin_cache, "MAX_BYTES", 100)
    assert builtin_cache.load("df-classic", _text("df-classic"), "x.yaml") is None
    assert _fresh("df-classic") == expected


def test_a_stale_cache_is_not_read(cache_home):
    _fresh("df-classic")
    (cache,) = _cache_files(cache_home, "df-classic")
    changed = _text("df-classic").replace("SKILL", "SKULL")
    shown = "<builtin>/df-classic.yaml"
    assert builtin_cache.load("df-classic", changed, shown) is None  # another file name
    # the old file under the new text's name: its header names the old text
    digest = builtin_cache._digest(changed)
    renamed = Path(builtin_cache._path("df-classic", digest))
    renamed.write_bytes(cache.read_bytes())
    assert builtin_cache.load("df-classic", changed, shown) is None
    tree = yamltree.load_yaml_text(changed, shown)
    builtin_cache.store("df-classic", changed, tree)
    assert builtin_cache.load("df-classic", changed, shown) == tree
    assert builtin_cache.load("df-classic", _text("df-classic"), shown) == _parsed("df-classic")


def test_an_unwritable_cache_is_done_without(tmp_path, monkeypatch):
    loader._builtin_tree.cache_clear()
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be", "utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.delenv("DEDALE_NO_CACHE", raising=False)
    expected = _parsed("df-classic")
    assert _fresh("df-classic") == expected  # no folder can be made there
    home = tmp_path / "home"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    _fresh("df-classic")
    (cache,) = _cache_files(home, "df-classic")
    cache.unlink()
    cache.mkdir()  # the cache's own path can be neither read nor replaced
    assert _fresh("df-classic") == expected
    assert cache.is_dir()
    assert not list((home / "dedale").glob("*.tmp"))  # no temporary file left behind
    monkeypatch.setenv("DEDALE_NO_CACHE", "1")
    cache.rmdir()
    assert _fresh("df-classic") == expected
    assert not _cache_files(home, "df-classic")  # nothing written when disabled
    loader._builtin_tree.cache_clear()
