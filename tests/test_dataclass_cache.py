"""The compiled methods of dataclasses kept between runs (dedale.dataclass_cache, issue
14.11): the same code as ``dataclasses`` compiles, read back by the next process, and a
cache file that is corrupt, cut short, of another format or cannot be written is done
without."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from dedale import dataclass_cache

ROOT = Path(__file__).resolve().parents[1]

# A child process: makes dataclasses of every kind Dédale uses, prints what they compiled
# to, whether the cache was installed, how many texts it read and how many it compiled.
CHILD = r"""
import dataclasses, json, sys
import dedale
from dedale import dataclass_cache, ast

@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
class Frozen:
    span: int
    name: str = "x"
    items: tuple = ()

@dataclasses.dataclass(slots=True)
class Plain:
    value: int
    seen: list = dataclasses.field(default_factory=list)

def shape(function):
    code = function.__code__
    return [code.co_code.hex(), repr(code.co_consts), code.co_names, code.co_varnames,
            code.co_flags, code.co_filename, repr(function.__annotations__),
            repr(function.__defaults__), repr(function.__kwdefaults__)]

methods = {}
for cls in (Frozen, Plain, ast.Choice, ast.Paragraph):
    for name in ("__init__", "__repr__", "__eq__", "__setattr__", "__delattr__", "__hash__"):
        function = cls.__dict__.get(name)
        if callable(function) and hasattr(function, "__code__"):
            methods[f"{cls.__name__}.{name}"] = shape(function)
frozen = Frozen(span=1, items=(2,))
try:
    frozen.name = "y"
    refused = False
except dataclasses.FrozenInstanceError:
    refused = True
print(json.dumps({
    "installed": "exec" in vars(dataclasses),
    "read": len(dataclass_cache._codes) - dataclass_cache._state["new"],
    "new": dataclass_cache._state["new"],
    "methods": methods,
    "behaviour": [repr(frozen), frozen == Frozen(span=1, items=(2,)), hash(frozen) ==
                  hash(Frozen(span=1, items=(2,))), refused, repr(Plain(3))],
}))
"""


def _child(cache_home: Path | None, **env_changes: str) -> dict:
    env = dict(os.environ)
    env.pop("DEDALE_NO_CACHE", None)
    if cache_home is not None:
        env["XDG_CACHE_HOME"] = str(cache_home)
    env.update(env_changes)
    done = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert not done.stderr  # nothing printed at exit either
    return json.loads(done.stdout)


def _cache_file(home: Path) -> Path:
    (found,) = sorted((home / "dedale").glob("dataclasses-*.bin"))
    return found


def test_the_cached_methods_are_the_compiled_ones_and_read_back(tmp_path):
    without = _child(tmp_path / "none", DEDALE_NO_CACHE="1")
    assert not without["installed"]
    first = _child(tmp_path)
    assert first["installed"] and first["read"] == 0 and first["new"] > 100
    second = _child(tmp_path)
    assert second["read"] >= first["new"] and second["new"] == 0  # nothing compiled again
    assert first["methods"] == without["methods"] == second["methods"]
    assert first["behaviour"] == without["behaviour"] == second["behaviour"]
    assert second["behaviour"][3] is True  # a frozen class still refuses an assignment


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],  # cut short
        lambda raw: raw[:-1] + bytes([raw[-1] ^ 1]),  # one bit changed
        lambda raw: b"another header\n" + raw[len(dataclass_cache.HEADER) :],
        lambda raw: b"garbage",
        lambda raw: b"",
    ],
    ids=["cut", "changed", "header", "garbage", "empty"],
)
def test_a_corrupt_cache_is_ignored_and_written_again(tmp_path, damage):
    expected = _child(tmp_path)
    cache = _cache_file(tmp_path)
    good = cache.read_bytes()
    assert dataclass_cache.read(str(cache))  # read whole
    cache.write_bytes(damage(good))
    assert dataclass_cache.read(str(cache)) == {}
    again = _child(tmp_path)
    assert again["read"] == 0 and again["new"] == expected["new"]
    assert again["methods"] == expected["methods"]
    assert len(dataclass_cache.read(str(cache))) == expected["new"]  # written again, whole


def test_a_valid_file_of_other_data_is_refused(tmp_path):
    import hashlib
    import marshal

    path = tmp_path / "cache.bin"
    for data in ([1, 2], {"text": "not code"}, {1: compile("x = 1", "<string>", "exec")}):
        payload = marshal.dumps(data)
        digest = hashlib.sha256(payload).hexdigest().encode()
        path.write_bytes(dataclass_cache.HEADER + digest + b"\n" + payload)
        assert dataclass_cache.read(str(path)) == {}
    path.write_bytes(b"x" * 100)
    assert dataclass_cache.read(str(path)) == {}
    assert dataclass_cache.read(str(tmp_path / "missing.bin")) == {}


def test_an_entry_that_is_not_code_is_compiled_again(tmp_path):
    """Each text's code is kept as its own marshal bytes and unmarshalled only when its
    dataclass is made: bytes that are no code object (or cannot be read) are compiled again
    from the text, and the file is written again with the good code."""
    import hashlib
    import marshal

    expected = _child(tmp_path)
    cache = _cache_file(tmp_path)
    kept = dataclass_cache.read(str(cache))
    assert kept and all(type(raw) is bytes for raw in kept.values())
    texts = sorted(kept)
    for index, text in enumerate(texts):  # every entry spoilt, two ways
        kept[text] = marshal.dumps("not code") if index % 2 else b"\xff garbage"
    payload = marshal.dumps(kept)
    digest = hashlib.sha256(payload).hexdigest().encode()
    cache.write_bytes(dataclass_cache.HEADER + digest + b"\n" + payload)
    again = _child(tmp_path)
    assert again["methods"] == expected["methods"]
    assert again["behaviour"] == expected["behaviour"]
    assert again["new"] == expected["new"]  # compiled again, each of them
    mended = dataclass_cache.read(str(cache))
    assert sorted(mended) == texts
    assert all(type(dataclass_cache._code(raw)) is type(compile("", "", "exec"))
               for raw in mended.values())  # fmt: skip


def test_a_file_too_large_is_not_read(tmp_path, monkeypatch):
    _child(tmp_path)
    cache = _cache_file(tmp_path)
    assert dataclass_cache.read(str(cache))
    monkeypatch.setattr(dataclass_cache, "MAX_BYTES", 1000)
    assert dataclass_cache.read(str(cache)) == {}


def test_an_unwritable_cache_is_done_without(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be", "utf-8")
    expected = _child(tmp_path / "none", DEDALE_NO_CACHE="1")
    found = _child(blocker)  # no folder can be made there: not installed
    assert not found["installed"] and found["methods"] == expected["methods"]
    home = tmp_path / "home"
    _child(home)
    cache = _cache_file(home)
    cache.unlink()
    cache.mkdir()  # the cache's own path can be neither read nor replaced
    found = _child(home)
    assert found["installed"] and found["read"] == 0
    assert found["methods"] == expected["methods"]
    assert cache.is_dir() and not list((home / "dedale").glob("*.tmp"))


def test_install_leaves_another_exec_alone(monkeypatch):
    other = object()
    monkeypatch.setattr(dataclasses, "exec", other, raising=False)
    dataclass_cache.install()
    assert dataclasses.exec is other
