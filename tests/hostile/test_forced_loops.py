"""Loops of forced jumps (issue 11.1, validator side): found statically, at the jump that
closes them, and random games of such books finish (bounded) without repeating them."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from dedale.validator import validate_path

YAML = "title: Loops\nlanguage: en\nruleset: df-classic\nstart: 1\n"


def book(tmp_path: Path, text: str) -> Path:
    folder = tmp_path / "book"
    folder.mkdir()
    (folder / "book.yaml").write_text(YAML, encoding="utf-8")
    (folder / "book.dd").write_text(text, encoding="utf-8")
    return folder


def findings(folder: Path, runs: int = 30) -> list[tuple[str, int | None, str]]:
    started = time.monotonic()
    report = validate_path(folder, runs=runs, seed=0)
    assert time.monotonic() - started < 20  # a bounded finish, never a hang
    return [(f.code, f.span.line if f.span else None, str(f.message)) for f in report.findings]


SELF = "§ 1\nAgain and again.\n> go to 1\n"
TWO = (
    "§ 1\nStart.\n-> 2 Go\n-> 3 Leave\n\n"
    "§ 2\nOn.\n> go to 4\n\n§ 4\nBack.\n> go to 2\n\n§ 3\n> victory\n"
)
CURRENT = (
    "§ 1\nStart.\n-> 2 Go\n-> 3 Leave\n\n§ 2\nHere again.\n> go to [paragraph]\n\n§ 3\n> victory\n"
)


@pytest.mark.parametrize(
    ("text", "trail", "line"),
    [(SELF, "1 → 1", 3), (TWO, "2 → 4 → 2", 12), (CURRENT, "2 → 2", 8)],
    ids=["self", "two-paragraphs", "current-paragraph"],
)
def test_certain_loop_is_one_error_at_the_closing_jump(tmp_path, text, trail, line):
    found = findings(book(tmp_path, text))
    loops = [item for item in found if item[0] == "E070"]
    assert loops == [("E070", line, f"paragraphs {trail} loop with nothing to decide")]
    # the random games that fell into it add nothing (no W043, E040, E015 for it)
    assert not {code for code, _, _ in found} & {"W043", "E040", "E015", "E041"}


def test_loop_whose_way_out_needs_a_codeword_never_set(tmp_path):
    text = (
        "§ 1\nStart.\n-> 2 Go\n-> 4 Leave\n\n"
        "§ 2\nThe stair.\n> if codeword NOCTIS: go to 4\n> go to 3\n\n"
        "§ 3\nDown.\n> go to 2\n\n§ 4\n> victory\n"
    )
    found = findings(book(tmp_path, text))
    assert [item[:2] for item in found] == [("E024", 8), ("E070", 13)]
    assert found[1][2] == (
        "paragraphs 2 → 3 → 2 loop with nothing to decide: the only way out needs "
        "codeword NOCTIS, which no paragraph gives"
    )


def test_loop_on_a_state_the_loop_never_changes_is_a_warning(tmp_path):
    text = (
        "§ 1\nStart.\n-> 4 Take the gem\n-> 2 Go\n\n"
        "§ 4\nA gem.\n> take Gem\n-> 2 Go on\n\n"
        "§ 2\nThe stair.\n> if not Gem: go to 5\n> go to 3\n\n"
        "§ 3\nDown.\n> go to 2\n\n§ 5\n> victory\n"
    )
    found = findings(book(tmp_path, text))
    assert [item[:2] for item in found] == [("W071", 18)]
    assert "unless not Gem holds" in found[0][2]


def test_loop_that_changes_what_ends_it_is_not_reported(tmp_path):
    text = (
        "§ 1\nStart.\n-> 2 Go\n\n"
        "§ 2\nThe cold bites.\n> lose 1 STAMINA\n> if STAMINA < 3: go to 4\n> go to 3\n\n"
        "§ 3\nOn.\n> go to 2\n\n§ 4\nRescued.\n> victory\n"
    )
    assert findings(book(tmp_path, text)) == []


def test_random_games_of_a_loop_book_are_cut_and_counted(tmp_path):
    from dedale.language import load_book
    from dedale.validator.graph import build_graph
    from dedale.validator.playthroughs import play_random_games

    loaded = load_book(book(tmp_path, TWO))
    graph = build_graph(loaded)
    started = time.monotonic()
    stats, found = play_random_games(loaded, graph, 20, 0, 2000, guarded=True)
    assert time.monotonic() - started < 10
    # cut by the validator's count (W043), or stopped by the interpreter's own bound (E040)
    assert stats.runs == 20 and stats.victories + stats.unfinished + stats.errors == 20
    assert stats.victories < 20
    assert len(found) == 1 and found[0].code in ("W043", "E040")  # E070 explains it: dropped
