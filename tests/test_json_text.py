"""dedale.json_text.dumps_indented writes the text of json.dumps(ensure_ascii=False, indent=2)."""

from __future__ import annotations

import enum
import json
import random

import pytest
from dedale.json_text import dumps_indented


class Level(enum.IntEnum):
    LOW = 1


class Name(str):
    pass


SCALARS = [
    "",
    "plain",
    'quote " and \\ backslash',
    "line\nbreak\ttab\x00\x1f",
    "accents éèà — « guillemets » \u2028 \U0001f600",
    0,
    -7,
    10**30,
    0.0,
    -0.0,
    0.1,
    1e-300,
    1.5e300,
    float("nan"),
    float("inf"),
    float("-inf"),
    True,
    False,
    None,
    Level.LOW,
    Name("sub"),
]
KEYS = ["k", "é", 'a"b', 3, -1, 2.5, True, False, None, Level.LOW, Name("n")]


def _document(rng: random.Random, depth: int) -> object:
    roll = rng.random()
    if depth <= 0 or roll < 0.4:
        return rng.choice(SCALARS)
    size = rng.choice([0, 1, 2, 3, 5])
    if roll < 0.6:
        return [_document(rng, depth - 1) for _ in range(size)]
    if roll < 0.7:
        return tuple(_document(rng, depth - 1) for _ in range(size))
    return {rng.choice(KEYS): _document(rng, depth - 1) for _ in range(size)}


@pytest.mark.parametrize("seed", range(40))
def test_same_text_as_json_dumps(seed: int) -> None:
    rng = random.Random(seed)
    value = _document(rng, 6)
    assert dumps_indented(value) == json.dumps(value, ensure_ascii=False, indent=2)


@pytest.mark.parametrize("indent", [0, 1, 4])
def test_other_indents(indent: int) -> None:
    value = {"a": [1, {"b": []}, {}], "c": {"d": "é"}}
    assert dumps_indented(value, indent) == json.dumps(value, ensure_ascii=False, indent=indent)


@pytest.mark.parametrize("value", [{1, 2}, object(), {"a": b"x"}, {(1, 2): 3}])
def test_refuses_what_json_refuses(value: object) -> None:
    with pytest.raises(TypeError):
        json.dumps(value, ensure_ascii=False, indent=2)
    with pytest.raises(TypeError):
        dumps_indented(value)


@pytest.mark.parametrize("name", ["greymane", "reliquaire"])
def test_a_validation_report_is_the_same(name: str) -> None:
    from pathlib import Path

    from dedale.validator import validate_path
    from dedale.validator.report.json import document

    book = Path(__file__).resolve().parents[1] / "books" / name
    data = document([validate_path(book, runs=0)], 0)
    assert data["books"][0]["fights"]  # a report with fights, findings, the path of fights
    assert dumps_indented(data) == json.dumps(data, ensure_ascii=False, indent=2)
