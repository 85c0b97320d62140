"""``dedale export --shuffle``: the renumbering's constraints, on every sample book over many
seeds (a property test), and the pins, the unsatisfiable case and the bound by hand."""

from __future__ import annotations

import functools
import time
from pathlib import Path

import pytest
from dedale.export.shuffle import (
    CHARS_PER_PAGE,
    _Search,
    estimated_lengths,
    links_of,
    plan,
    renumber,
)
from dedale.export.shuffle_pins import default_pins, prose_numbers
from dedale.export.shuffle_report import shuffle_warnings
from dedale.language import load_book
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p.name for p in (ROOT / "books").iterdir() if (p / "book.yaml").is_file())
SAMPLES.append("../tests/books_extra/shuffle")
SHUFFLE_BOOK = ROOT / "tests" / "books_extra" / "shuffle"


@functools.cache
def sample(name: str):
    return load_book(ROOT / "books" / name)


def write(tmp_path: Path, body: str, yaml: str = "") -> object:
    folder = tmp_path / "book"
    folder.mkdir(exist_ok=True)
    (folder / "book.yaml").write_text(f"title: T\nlanguage: en\nruleset: df-classic\n{yaml}")
    (folder / "a.dd").write_text(body)
    return load_book(folder)


def chain(count: int) -> str:
    """Paragraphs 1..count in story order, each leading to the next and the one after."""
    parts = []
    for n in range(1, count):
        further = f"-> {n + 2} Run\n" if n + 2 <= count else ""
        parts.append(f"§ {n}\nA corridor.\n-> {n + 1} Walk\n{further}")
    parts.append(f"§ {count}\nThe end.\n> victory\n")
    return "\n".join(parts)


@pytest.mark.parametrize("name", SAMPLES)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31))
def test_the_shuffle_keeps_its_constraints_on_every_sample_book(name, seed):
    book = sample(name)
    result = plan(book, seed)
    mapping = result.mapping
    assert sorted(mapping) == sorted(book.paragraphs)
    assert sorted(mapping.values()) == sorted(book.paragraphs)  # a permutation
    for number in default_pins(book):
        assert mapping[number] == number
    assert book.start in result.pinned
    touching = [(a, b) for a, b in links_of(book) if abs(mapping[a] - mapping[b]) == 1]
    assert touching == list(result.adjacent)
    # only the links the pins force stay on consecutive numbers
    assert all(a in result.pinned and b in result.pinned for a, b in touching), touching
    assert renumber(book, seed) == mapping  # same seed, same map


def test_different_seeds_give_different_numberings():
    book = sample("le-puits-des-ombres")
    maps = {tuple(sorted(renumber(book, seed).items())) for seed in range(6)}
    assert len(maps) == 6


def test_the_search_takes_linked_paragraphs_off_one_spread():
    """Against the same seed's random numbering before the search, on the longest book."""
    book = sample("le-puits-des-ombres")
    lengths = estimated_lengths(book)
    links = links_of(book)
    before, after = 0, 0
    for seed in range(5):
        start = _Search(
            sorted(book.paragraphs), set(default_pins(book)), links, lengths, CHARS_PER_PAGE, seed
        )
        before += len(start.same_spread(start.layout()))
        after += len(plan(book, seed).same_spread)
    assert after < before / 2, (before, after)


def test_the_pins_of_a_book(tmp_path):
    book = load_book(SHUFFLE_BOOK)
    pins = default_pins(book)
    assert pins == {1: "start", 6: "prose", 9: "author", 11: "victory", 12: "hidden"}
    assert book.meta.pinned == (9,)  # book.yaml's `fixés: [9]`


def test_computed_destinations_and_item_numbers_are_pinned(tmp_path):
    body = (
        "§ 1\nA hall.\n> take Brass Key (number 4)\n-> [paragraph + 5] Count\n-> 2 On\n\n"
        "§ 2\nA door.\n-> 3 On\n\n§ 3\nA stair.\n-> 6 Up\n\n§ 4\nA cell.\n-> 5 On\n\n"
        "§ 5\nA pit.\n> death\n\n§ 6\nThe top.\n-> [number of Brass Key + 1] On\n"
        "-> 7 On\n\n§ 7\n> victory\n"
    )
    pins = default_pins(write(tmp_path, body))
    # 4: the key's number; 5 = the key's number + 1 (the validator's possible value);
    # [paragraph + 5] is a constant, printed as "turn to 6" and rewritten: 6 is free
    assert pins == {1: "start", 4: "item", 5: "computed", 7: "victory"}


def test_prose_numbers_skip_marked_references_and_dice():
    assert prose_numbers("Take 3 coins and turn to {§ 12}, roll 1d6, 2.5 km, §40") == {3, 40}


def test_an_unsatisfiable_book_gets_the_closest_numbering_and_a_warning(tmp_path):
    # 1 (start) -> 2 -> 3 (victory): 2 has nowhere to go
    book = write(tmp_path, "§ 1\nGo.\n-> 2 On\n\n§ 2\nOn.\n-> 3 On\n\n§ 3\n> victory\n")
    result = plan(book, 5)
    assert result.mapping == {1: 1, 2: 2, 3: 3}
    assert result.adjacent == ((1, 2), (2, 3))
    said = shuffle_warnings(result, "fr")
    assert "paragraphes 1 et 2" in said[0] and "le départ" in said[0], said


def test_a_link_left_apart_by_no_pin_of_its_own_says_why(tmp_path):
    # 1 -> 2, 3; 2, 3 -> 4; 4 -> 5 (victory), 6: no numbering keeps 4's links apart
    body = (
        "§ 1\nGo.\n-> 2 A\n-> 3 B\n\n§ 2\nA.\n-> 4 On\n\n§ 3\nB.\n-> 4 On\n\n"
        "§ 4\nDoor.\n-> 5 Up\n-> 6 Down\n\n§ 5\n> victory\n\n§ 6\n> death\n"
    )
    result = plan(write(tmp_path, body), 7)
    assert result.adjacent
    unpinned = [
        (a, b) for a, b in result.adjacent if a not in result.pinned and b not in result.pinned
    ]
    assert unpinned, result
    said = shuffle_warnings(result, "fr")
    assert any("aucune numérotation ne sépare tous les liens" in line for line in said), said
    assert not any("aucune)" in line for line in said)


def test_the_author_pins_in_both_key_languages(tmp_path):
    for key in ("pinned", "fixés", "numeros fixes"):
        book = write(tmp_path, chain(20), f"{key}: [7, 12]\n")
        assert book.meta.pinned == (7, 12)
        mapping = renumber(book, 3)
        assert mapping[7] == 7 and mapping[12] == 12


def test_a_pinned_value_that_is_not_numbers_is_a_located_error(tmp_path):
    from dedale.errors import BookError

    with pytest.raises(BookError) as caught:
        write(tmp_path, chain(4), "pinned: [seven]\n")
    shown = caught.value.render()
    assert "book.yaml:4:9: `pinned` must be a list of paragraph numbers" in shown, shown


def test_a_dense_book_is_bounded(tmp_path):
    """Every paragraph links to every other: no numbering can hold; the search stops."""
    count = 60
    body = "\n".join(
        f"§ {n}\nRoom.\n" + "".join(f"-> {m} Go\n" for m in range(1, count + 1) if m != n)
        for n in range(1, count + 1)
    )
    book = write(tmp_path, body)
    started = time.perf_counter()
    result = plan(book, 1)
    assert time.perf_counter() - started < 30
    assert sorted(result.mapping.values()) == list(range(1, count + 1))
    assert len(result.adjacent) == count - 1  # each pair of consecutive numbers, once


def _small_book(folder: Path, edges: list[tuple[int, int]], count: int):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "book.yaml").write_text("title: T\nlanguage: en\nruleset: df-classic\n")
    parts = []
    for n in range(1, count + 1):
        ways = "".join(f"-> {b} Go\n" for a, b in edges if a == n)
        parts.append(f"§ {n}\nRoom.\n{ways or '> victory' + chr(10)}")
    (folder / "a.dd").write_text("\n".join(parts))
    return load_book(folder)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    edges=st.lists(
        st.tuples(st.integers(1, 7), st.integers(1, 7)).filter(lambda e: e[0] != e[1]),
        min_size=4,
        max_size=12,
        unique=True,
    )
)
def test_the_search_finds_the_fewest_adjacent_links_brute_force_finds(edges):
    """On books of 7 paragraphs, against every permutation that keeps the pins."""
    import itertools
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        book = _small_book(Path(folder) / "b", edges, 7)
    result = plan(book, 1)
    pins = set(result.pinned)
    free = [n for n in range(1, 8) if n not in pins]
    links = links_of(book)
    best = len(links)
    for order in itertools.permutations(free):
        new = {n: n for n in pins} | dict(zip(free, order, strict=True))
        best = min(best, sum(1 for a, b in links if abs(new[a] - new[b]) == 1))
        if best == 0:
            break
    assert len(result.adjacent) == best, (edges, result.mapping, best)
