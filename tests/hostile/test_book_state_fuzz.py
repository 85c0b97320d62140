"""Hostile ``state:`` sections and flag/counter lines (issue 13 §4): whatever book.yaml
declares and whatever the paragraphs do with it, loading gives a typed, located error or a
book that plays and validates without a traceback."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from dedale.errors import BookLoadError
from dedale.game import Game
from dedale.game.random_player import RandomPlayer
from dedale.language import load_book
from dedale.validator import validate_loaded
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

NAMES = st.sampled_from(["calf", "met lieutenant", "Met Lieutenant", "gold", "Rope", "x", "é"])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 2_000_000), NAMES,
    st.sampled_from(["stats", "notes", "no", "caractéristiques", "left", ""]),
)  # fmt: skip
SETTINGS = st.dictionaries(
    st.sampled_from(["name", "nom", "sheet", "feuille", "start", "départ", "max", "oops"]),
    SCALARS,
    max_size=4,
)
ENTRIES = st.one_of(
    st.lists(st.one_of(NAMES, SCALARS), max_size=4),
    st.dictionaries(NAMES, st.one_of(SETTINGS, SCALARS), max_size=4),
    SCALARS,
)
SECTION = st.one_of(
    st.dictionaries(
        st.sampled_from(["flags", "counters", "drapeaux", "compteurs", "flag"]), ENTRIES, max_size=3
    ),  # fmt: skip
    SCALARS,
    st.lists(SCALARS, max_size=2),
)
LINES = st.lists(
    st.one_of(
        NAMES.map(lambda n: f"> note {n}"),
        NAMES.map(lambda n: f"> clear {n}"),
        st.tuples(st.sampled_from(["1", "3", "1d6", "0"]), NAMES).map(
            lambda p: f"> add {p[0]} to {p[1]}"
        ),
        st.tuples(st.sampled_from(["1", "2d6"]), NAMES).map(
            lambda p: f"> remove {p[0]} from {p[1]}"
        ),
        NAMES.map(lambda n: f"> take {n}"),
        st.tuples(st.sampled_from(["", "not ", "2 ", "you have 3 "]), NAMES).map(
            lambda p: f"-> 2 (if {p[0]}{p[1]}) On"
        ),
        st.tuples(NAMES, st.sampled_from([">=", "<", "="]), st.integers(0, 5)).map(
            lambda p: f"> if {p[0]} {p[1]} {p[2]}: go to 2"
        ),
    ),
    max_size=6,
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(SECTION, LINES)
@example({"flags": ["calf"], "counters": {"x": {"max": 2}}},
         ["> note calf", "> add 3 to x", "-> 2 (if calf and x >= 2) On"])  # fmt: skip
def test_hostile_state_gives_typed_errors_or_a_playable_book(section, lines):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        yaml = "title: t\nlanguage: en\nstate: " + json.dumps(section, ensure_ascii=False) + "\n"
        (root / "book.yaml").write_text(yaml, "utf-8")
        body = "§ 1\n" + "\n".join(lines) + "\n-> 2 Go\n\n§ 2\n> victory\n"
        (root / "p.dd").write_text(body, "utf-8")
        try:
            book = load_book(root)
        except BookLoadError as error:
            assert error.errors and all(e.span is not None for e in error.errors)
            return
        assert book.paragraphs
        for seed in range(3):
            game = Game.new(book, seed, name="A")
            result = RandomPlayer(seed).play(game, max_steps=20)
            assert result.error is None, result.error
        validate_loaded(book, tmp, runs=2)
