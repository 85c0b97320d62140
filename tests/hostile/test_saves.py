"""Hostile save files (issue 11.8): every bad field is a located SaveError, never a traceback;
interrupted saves leave no temporary files behind for long."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from dedale.cli import main
from dedale.errors import SaveError
from dedale.game import Game
from dedale.game.saving import load_for_replay, load_game, save_game
from dedale.language import load_book
from dedale.saves import read_save, remove_stale_temporaries

BOOK = Path(__file__).parent.parent / "game" / "books" / "trail.dd"


@pytest.fixture(scope="module")
def book():
    return load_book(BOOK)


def saved(book, tmp_path: Path) -> Path:
    game = Game.new(book, 7, hero=(10, 20, 9), name="Ari", lang="en")
    while not game.prompt:
        game.next()
    game.answer(1)
    game.next()
    return save_game(game, tmp_path / "s.dsave")


def edited(path: Path, edit) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def test_deeply_nested_json_is_refused_at_its_place(tmp_path):
    path = tmp_path / "deep.dsave"
    path.write_text('{"format": "dedale-save",\n "x": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(SaveError) as raised:
        read_save(path)
    assert "nested more than" in raised.value.message
    assert (raised.value.span.line, raised.value.span.column) == (2, 30)


def test_a_number_past_pythons_digit_limit_is_refused(book, tmp_path):
    path = saved(book, tmp_path)
    text = path.read_text(encoding="utf-8").replace('"seed": 7', '"seed": ' + "9" * 5000)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError, match="digits") as raised:
        load_game(book, path)
    line = text.splitlines()[raised.value.span.line - 1]
    assert line[raised.value.span.column - 1 :].startswith("9999")


def test_nan_is_refused(book, tmp_path):
    path = saved(book, tmp_path)
    text = path.read_text(encoding="utf-8").replace('"seed": 7', '"seed": NaN')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError, match="NaN is not a number"):
        load_game(book, path)


BAD_FIELDS = {
    "seed as text": (lambda d: d.update(seed="7"), "seed", "a whole number is expected"),
    "seed too big": (lambda d: d.update(seed=2**70), "seed", "out of range"),
    "title as list": (lambda d: d["book"].update(title=[1]), "title", "a text is expected"),
    "hero value as text": (
        lambda d: d["creation"].update(hero=[10, "x", 9]),
        "hero",
        "creation.hero[1]: a whole number",
    ),
    "decision as object of objects": (
        lambda d: d["decisions"].append({"action": {"deep": 1}}),
        "action",
        "decisions[1].action",
    ),
    "stat as float": (
        lambda d: d["state"]["hero"]["stats"].update(SKILL=1.5),
        "SKILL",
        "state.hero.stats.SKILL: a whole number is expected, not a decimal number",
    ),
    "stat out of range": (
        lambda d: d["state"]["hero"]["stats"].update(SKILL=10**11),
        "SKILL",
        "out of range",
    ),
    "history entry": (
        lambda d: d["state"].update(history=[[1, 2, 3]]),
        "history",
        "a list of 2 values",
    ),
    "book_path as number": (lambda d: d.update(book_path=12), "book_path", "a text is expected"),
    "book_path with NUL": (lambda d: d.update(book_path="a\x00b"), "book_path", "NUL"),
    "visited key": (
        lambda d: d["state"]["visited"].update({"1" * 20: 1}),
        "1" * 20,
        "too long",
    ),
    "paragraph as bool": (
        lambda d: d["state"].update(paragraph=True),
        "paragraph",
        "a whole number is expected, not true/false",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_FIELDS))
def test_each_bad_field_is_a_located_save_error(book, tmp_path, case):
    edit, key, expected = BAD_FIELDS[case]
    path = edited(saved(book, tmp_path), edit)
    with pytest.raises(SaveError) as raised:
        load_game(book, path)
    error = raised.value
    assert expected in error.message
    assert error.span is not None and error.span.file == str(path)
    line = path.read_text(encoding="utf-8").splitlines()[error.span.line - 1]
    assert f'"{key}"' in line  # the span points at the bad field's line
    assert str(error.span) in error.render()


def test_replay_of_a_save_whose_book_path_is_not_text(book, tmp_path, capsys):
    path = edited(saved(book, tmp_path), lambda d: d.update(book_path=["x"]))
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert "field book_path: a text is expected, not a list" in err
    assert f"{path}:" in err and "Traceback" not in err


def test_replay_of_a_save_whose_book_path_is_too_long(book, tmp_path, capsys):
    path = edited(saved(book, tmp_path), lambda d: d.update(book_path="x" * 4000))
    assert main(["replay", str(path)]) == 2
    assert "no book at" in capsys.readouterr().err


def test_a_schema_valid_state_that_does_not_fit_the_book_is_a_save_error(book, tmp_path):
    path = edited(saved(book, tmp_path), lambda d: d["state"]["hero"].update(stats={}))
    data = load_for_replay(path)
    assert data.state["hero"]["stats"] == {}
    try:
        load_game(book, path)
    except SaveError as error:
        assert error.span is not None
    # either refused with a SaveError or resumed: never another exception


def test_stale_temporaries_of_dead_writers_are_removed(book, tmp_path):
    path = saved(book, tmp_path)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    left = tmp_path / f".{path.name}.{dead}.abc123.tmp"
    left.write_text("{", encoding="utf-8")
    old = tmp_path / f".{path.name}.oldstyle.tmp"
    old.write_text("{", encoding="utf-8")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    mine = tmp_path / f".{path.name}.{os.getpid()}.live.tmp"
    mine.write_text("{", encoding="utf-8")
    assert remove_stale_temporaries(path) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, mine.name])


WRITER = textwrap.dedent(
    """
    import sys
    from dedale.game import Game
    from dedale.game.saving import save_game
    from dedale.language import load_book
    book = load_book(sys.argv[1])
    game = Game.new(book, 7, hero=(10, 20, 9), name="Ari", lang="en")
    game.next()
    print("ready", flush=True)
    while True:
        save_game(game, sys.argv[2])
    """
)


def test_kill_9_during_saves_leaves_the_save_and_no_lasting_temporaries(book, tmp_path):
    target = tmp_path / "loop.dsave"
    for _ in range(8):
        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(BOOK), str(target)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert writer.stdout is not None and writer.stdout.readline().strip() == "ready"
        time.sleep(0.05)
        writer.kill()
        writer.wait(timeout=10)
        writer.stdout.close()
    read_save(target)  # the save itself is always whole
    game = Game.new(book, 7, hero=(10, 20, 9), name="Ari", lang="en")
    game.next()
    save_game(game, target)  # the next save cleans up what the killed writers left
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


@pytest.mark.parametrize(
    "content",
    [
        '{"format": "dedale-save", "version": 1, "x": ' + "[" * 50_000 + "]" * 50_000 + "}",
        '{"format": "dedale-save", "version": 1, "book": {"title": 5}}',
        '{"format": "dedale-save", "version": 1, "seed": ' + "7" * 5000 + "}",
    ],
    ids=["deep", "title as number", "huge seed"],
)
def test_continue_from_a_hostile_autosave_is_refused_in_the_app(tmp_path, content):
    import asyncio

    from dedale.player.app import DedaleApp
    from dedale.player.screens.title import TitleScreen
    from dedale.player.slots import AUTOSAVE, SaveSlots

    tutorial = Path(__file__).resolve().parents[2] / "books" / "tutorial"
    slots = SaveSlots(tmp_path, "tutorial")
    slots.path(AUTOSAVE).parent.mkdir(parents=True)
    slots.path(AUTOSAVE).write_text(content, encoding="utf-8")
    book = load_book(tutorial)
    app = DedaleApp(book, lambda b: Game.new(b, 7, lang="en"), lang="en", slots=slots)
    notes: list[str] = []
    app.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]

    async def scenario():
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("2")  # continue (last autosave)
            await pilot.pause()
            assert isinstance(app.screen, TitleScreen)

    asyncio.run(scenario())
    assert any(f"{slots.path(AUTOSAVE)}:" in note for note in notes)  # located
    assert app.return_code in (None, 0)
