"""Forced loops at run time (issue 11.1): paragraphs that send the reader round and round
with nothing to decide end with a located ForcedLoopError, in every tool, within seconds."""

from __future__ import annotations

import subprocess
import sys

import pytest
from dedale.game import Game
from dedale.game.forced import FORCED_LIMIT, ForcedLoopError
from dedale.game.random_player import play_random
from dedale.language import load_book

HEADER = "---\ntitle: t\nruleset: df-classic\nlanguage: en\n---\n"

SELF_LOOP = "§ 1\nRound.\n> go to 1\n"
TWO_LOOP = "§ 1\nThere.\n> go to 2\n\n§ 2\nAnd back.\n> go to 1\n"
COMPUTED = "§ 1\nHere again.\n> go to [paragraph]\n"
CODEWORD = (
    "§ 1\nA locked door.\n> if codeword OPEN: go to 3\n> go to 2\n\n"
    "§ 2\nThe corridor turns.\n> go to 1\n\n"
    "§ 3\nOut.\n> victory\n\n"
    "§ 4\nNobody comes here.\n> set codeword OPEN\n> victory\n"
)


def book_file(tmp_path, text: str):
    path = tmp_path / "book.dd"
    path.write_text(HEADER + text, "utf-8")
    return path


def pull_all(game: Game) -> None:
    for _ in range(100 * FORCED_LIMIT):
        if game.next() is None:
            return
    raise AssertionError("the game did not stop")


@pytest.mark.parametrize(
    ("text", "cycle", "line"),
    [
        (SELF_LOOP, "1 → 1", 6),
        (TWO_LOOP, "1 → 2 → 1", 10),
        (COMPUTED, "1 → 1", 6),
        (CODEWORD, "1 → 2 → 1", 11),
    ],
    ids=["self", "two", "computed", "codeword"],
)
def test_a_forced_loop_is_a_located_error(tmp_path, text, cycle, line):
    book = load_book(book_file(tmp_path, text))
    for quiet in (False, True):
        game = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang="en", quiet=quiet)
        with pytest.raises(ForcedLoopError) as caught:
            pull_all(game)
        error = caught.value
        assert error.message == f"paragraphs {cycle} loop with nothing to decide"
        assert error.span is not None and error.span.line == line  # the loop closes there
        assert "a codeword that is never set" in error.hint
        assert len(game.state.history) <= 3 * len(cycle)  # found on the second round


def test_the_error_renders_with_its_line(tmp_path):
    book = load_book(book_file(tmp_path, TWO_LOOP))
    with pytest.raises(ForcedLoopError) as caught:
        pull_all(Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang="en"))
    text = caught.value.render()
    assert "book.dd:10:1: paragraphs 1 → 2 → 1 loop" in text
    assert "§ 2" in text and "hint:" in text


def test_decisions_on_the_way_reset_the_count(tmp_path):
    """A loop the reader goes round by choosing is his own business, however long."""
    text = "§ 1\n-> 2 On\n-> 3 Stop\n\n§ 2\n> go to 1\n\n§ 3\n> victory\n"
    book = load_book(book_file(tmp_path, text))
    game = Game.new(book, 1, hero=(10, 20, 9), name="Ari", lang="en", quiet=True)
    for _ in range(2 * FORCED_LIMIT):
        game.next()
        game.answer(1)
    game.next()
    game.answer(2)
    assert game.next() is None and game.outcome == "victory"


def test_a_loop_left_to_the_dice_is_not_refused(tmp_path):
    """Rolling until a six is a loop with a way out: it is played, not refused."""
    text = "§ 1\nYou pull at the rope.\n> roll 1d6: 1-5 -> 1, 6 -> 2\n\n§ 2\n> victory\n"
    book = load_book(book_file(tmp_path, text))
    for seed in range(20):
        game = Game.new(book, seed, hero=(10, 20, 9), name="Ari", lang="en", quiet=True)
        pull_all(game)
        assert game.outcome == "victory"


def test_a_loop_whose_state_changes_goes_on_until_it_gets_out(tmp_path):
    """Forced, but not stuck: gold grows each round until the way out opens; STAMINA
    falls each round until the hero dies."""
    text = (
        "§ 1\n> gain 1 gold\n> if gold >= 5: go to 3\n> go to 2\n\n§ 2\n> go to 1\n\n"
        "§ 3\nOut.\n> victory\n"
    )
    game = Game.new(load_book(book_file(tmp_path, text)), 1, hero=(10, 20, 9), name="A")
    pull_all(game)
    assert game.outcome == "victory" and game.state.hero.counters["gold"] == 5
    (tmp_path / "b").mkdir()
    text = "§ 1\nThe wound bleeds.\n> lose 1 STAMINA\n> go to 1\n"
    game = Game.new(load_book(book_file(tmp_path / "b", text)), 1, hero=(10, 20, 9), name="A")
    pull_all(game)
    assert game.outcome == "death" and len(game.state.history) == 20


def test_a_loop_of_dice_with_no_way_out_stops_at_the_limit(tmp_path):
    text = "§ 1\nThe wheel turns.\n> roll 1d6: 1-3 -> 2, 4-6 -> 1\n\n§ 2\n> go to 1\n"
    book = load_book(book_file(tmp_path, text))
    game = Game.new(book, 1, hero=(10, 20, 9), name="A", quiet=True)
    with pytest.raises(ForcedLoopError) as caught:
        pull_all(game)
    assert "loop with nothing to decide" in caught.value.message
    assert f"the dice did not lead out in {FORCED_LIMIT} paragraphs" in caught.value.hint
    assert len(game.state.history) == FORCED_LIMIT


def test_random_playthroughs_report_the_loop(tmp_path):
    book = load_book(book_file(tmp_path, CODEWORD))
    _game, run = play_random(book, 3, hero=(10, 20, 9))
    assert isinstance(run.error, ForcedLoopError)
    assert run.outcome is None and len(run.paragraphs) <= FORCED_LIMIT


def dedale(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dedale", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_plain_play_ends_with_the_message(tmp_path):
    path = book_file(tmp_path, TWO_LOOP)
    hero = ("--hero", "10", "20", "9")
    done = dedale("play", str(path), "--plain", "--seed", "1", "--name", "A", *hero)
    assert done.returncode != 0
    assert "paragraphs 1 → 2 → 1 loop with nothing to decide" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_validate_ends_and_fails(tmp_path):
    path = book_file(tmp_path, CODEWORD)
    done = dedale("validate", str(path))
    assert done.returncode != 0
    assert "loop" in done.stdout
    assert "Traceback" not in done.stderr


# ------------------------------------------------------------------ fights nobody can win

GHOST = (
    "§ 1\n> fight\n> enemy GHOST SKILL 99 STAMINA 5\n> enemy damage 0\n{extra}> win -> 2\n\n"
    "§ 2\n> victory\n"
)


@pytest.mark.parametrize(
    ("ruleset", "text", "hero"),
    [
        ("df-classic", GHOST.format(extra=""), (10, 20, 0)),
        (
            "df-classic",
            GHOST.format(extra="> each assault roll 1d6\n> 1-6: gain 1 gold\n"),
            (10, 20, 0),
        ),
        (
            "d20",
            "§ 1\n> fight\n> enemy WALL AC 100 attack -100 damage 1d4 HP 5\n> win -> 2\n\n"
            "§ 2\n> victory\n",
            (10, 10, 10, 10, 10, 10, 2, 20),
        ),
    ],
    ids=["opposed", "by-assault", "d20"],
)
def test_a_fight_that_cannot_end_stops_with_a_located_error(tmp_path, ruleset, text, hero):
    """With no Luck to ask about and nobody able to win, a fight asks nothing: it is
    stopped after MAX_ASSAULTS assaults instead of running for ever."""
    from dedale.errors import GameError
    from dedale.rules.fights import MAX_ASSAULTS

    path = tmp_path / "book.dd"
    path.write_text(HEADER.replace("df-classic", ruleset) + text, "utf-8")
    book = load_book(path)
    for quiet in (True, False):
        game = Game.new(book, 1, hero=hero, name="A", lang="en", quiet=quiet, free_stats=True)
        with pytest.raises(GameError) as caught:
            for _ in range(50 * MAX_ASSAULTS):
                item = game.next()
                assert item is None or not hasattr(item, "options"), item
                if item is None:
                    break
        error = caught.value
        assert f"still going after {MAX_ASSAULTS} assaults" in error.message
        assert error.span is not None and error.span.line == 7  # the fight line


def test_a_chain_of_forced_jumps_longer_than_the_limit_is_refused(tmp_path):
    count = FORCED_LIMIT + 5
    text = "".join(f"§ {n}\n> go to {n + 1}\n\n" for n in range(1, count))
    text += f"§ {count}\n> victory\n"
    book = load_book(book_file(tmp_path, text))
    game = Game.new(book, 1, hero=(10, 20, 9), name="A", quiet=True)
    with pytest.raises(ForcedLoopError) as caught:
        pull_all(game)
    error = caught.value
    assert error.message.startswith(f"{FORCED_LIMIT} paragraphs in a row with nothing to decide")
    trail = " → ".join(str(n) for n in range(FORCED_LIMIT - 11, FORCED_LIMIT + 1))
    assert error.message.endswith(f"(… → {trail})")  # the last twelve paragraphs
    assert str(FORCED_LIMIT) in error.hint
