"""Saves: round trips, atomic writes, and one clear message per way a file can be bad."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from dedale.errors import SaveError
from dedale.game import Game
from dedale.game.random_player import RandomPlayer
from dedale.game.saving import load_game, save_game, to_save
from dedale.language import load_book
from dedale.saves import SAVE_VERSION, read_save, write_save

BOOK = Path(__file__).parent / "game" / "books" / "trail.dd"


@pytest.fixture(scope="module")
def book():
    return load_book(BOOK)


def played(book, answers=(1, 3)) -> Game:
    game = Game.new(book, 7, hero=(10, 20, 9), name="Ari", lang="en")
    for answer in answers:
        while not game.prompt:
            game.next()
        game.answer(answer)
    game.next()
    return game


def test_round_trip_restores_the_exact_state(book, tmp_path):
    game = played(book)
    path = save_game(game, tmp_path / "a.dsave")
    loaded, report = load_game(book, path)
    assert report.divergence is None and not report.fallback
    assert loaded.snapshot() == game.snapshot()
    assert loaded.decisions == game.decisions
    assert read_save(path).seed == 7


def test_a_failed_write_keeps_the_previous_save(book, tmp_path, monkeypatch):
    path = save_game(played(book, (1,)), tmp_path / "a.dsave")
    before = path.read_bytes()

    def crash(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(SaveError, match="cannot write the save"):
        save_game(played(book), path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["a.dsave"]  # no temporary file left


def corrupt(tmp_path, book, change) -> Path:
    path = save_game(played(book), tmp_path / "s.dsave")
    change(path)
    return path


def _json_edit(edit):
    def change(path: Path):
        data = json.loads(path.read_text(encoding="utf-8"))
        edit(data)
        path.write_text(json.dumps(data), encoding="utf-8")

    return change


CASES = {
    "missing": (lambda p: p.unlink(), "no save file at"),
    "truncated": (
        lambda p: p.write_bytes(p.read_bytes()[: len(p.read_bytes()) // 2]),
        "is truncated",
    ),
    "garbage": (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff\xfe"), "binary data"),
    "not json": (lambda p: p.write_text("hello world", encoding="utf-8"), "not hold a JSON"),
    "bad json": (
        lambda p: p.write_text('{"format": "dedale-save", oops, "x": 1}', encoding="utf-8"),
        "is corrupted: invalid JSON at line 1",
    ),
    "empty": (lambda p: p.write_bytes(b""), "is empty"),
    "not a save": (lambda p: p.write_text('{"a": 1}', encoding="utf-8"), "not a Dédale save"),
    "too new": (
        _json_edit(lambda d: d.update(version=SAVE_VERSION + 1)),
        "written by a newer Dédale",
    ),
    "too old": (_json_edit(lambda d: d.update(version=0)), "old save format 0"),
    "incomplete": (_json_edit(lambda d: d.pop("decisions")), "field 'decisions' is missing"),
    "bad hero": (
        _json_edit(lambda d: d["creation"].update(hero="strong")),
        "field creation.hero: a list is expected, not a text",
    ),
    "bad state": (
        _json_edit(lambda d: d["state"].pop("visited")),
        "field 'state.visited' is missing",
    ),
    "other book": (
        _json_edit(lambda d: d["book"].update(title="Another Book")),
        "belongs to another book: 'Another Book'",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_each_bad_save_has_its_own_message(book, tmp_path, case):
    change, expected = CASES[case]
    path = corrupt(tmp_path, book, change)
    before = path.read_bytes() if path.exists() else None
    with pytest.raises(SaveError) as raised:
        load_game(book, path)
    assert expected in raised.value.message
    if case != "missing":  # a bad save is located: file:line:column
        assert raised.value.span is not None and raised.value.span.file == str(path)
    assert (path.read_bytes() if path.exists() else None) == before  # nothing changed


def test_messages_are_all_different(book, tmp_path):
    messages = set()
    for name, (change, _) in CASES.items():
        folder = tmp_path / name.replace(" ", "_")
        path = corrupt(folder, book, change)
        with pytest.raises(SaveError) as raised:
            load_game(book, path)
        messages.add(raised.value.message.replace(str(path), "PATH"))
    assert len(messages) == len(CASES)


def test_an_edited_book_diverges_and_falls_back_to_the_snapshot(book, tmp_path):
    game = played(book, (1, 1))  # bought the lantern: now in paragraph 5
    path = save_game(game, tmp_path / "s.dsave")
    edited = tmp_path / "trail.dd"
    text = BOOK.read_text(encoding="utf-8").replace("-> 5 (pay 2 gold)", "-> 5 (pay 20 gold)")
    edited.write_text(text, encoding="utf-8")
    changed = load_book(edited)
    loaded, report = load_game(changed, path)
    assert report.fallback and "decision 2 no longer fits" in report.divergence
    assert loaded.state.paragraph == 5
    assert loaded.state.hero.items == {"Lantern": 1}
    prompt = loaded.next()
    while not hasattr(prompt, "options"):  # the paragraph's events, then its choice
        prompt = loaded.next()
    assert [o.target for o in prompt.options] == [7]
    assert loaded.state.hero.items == {"Lantern": 1}  # paragraph 5's effects not applied twice


def test_write_save_then_read_save(tmp_path, book):
    data = to_save(played(book))
    write_save(tmp_path / "x.dsave", data)
    assert read_save(tmp_path / "x.dsave").to_json() == json.loads(json.dumps(data.to_json()))


def test_random_games_save_and_load_identically(book, tmp_path):
    for seed in range(15):
        game = Game.new(book, seed, hero=(10, 20, 9), name="Ari")
        RandomPlayer(seed).play(game, max_steps=4)
        path = save_game(game, tmp_path / f"{seed}.dsave")
        loaded, report = load_game(book, path)
        assert report.divergence is None
        assert loaded.snapshot() == game.snapshot()


def test_a_game_resumed_from_its_snapshot_saves_and_replays(book, tmp_path):
    from dedale.game.saving import replay_save

    path = save_game(played(book, (1, 1)), tmp_path / "s.dsave")
    edited = tmp_path / "trail.dd"
    text = BOOK.read_text(encoding="utf-8").replace("-> 5 (pay 2 gold)", "-> 5 (pay 20 gold)")
    edited.write_text(text, encoding="utf-8")
    changed = load_book(edited)
    loaded, report = load_game(changed, path)
    assert report.fallback
    while not loaded.prompt:
        loaded.next()
    loaded.answer(1)  # walk on, from the snapshot
    again = save_game(loaded, tmp_path / "t.dsave")
    data = read_save(again)
    assert data.origin is not None and data.decisions == [1]
    assert replay_save(changed, data).difference is None
    reloaded, report = load_game(changed, again)
    assert report.divergence is None and reloaded.snapshot() == loaded.snapshot()


@pytest.mark.parametrize("case", ["truncated", "bad json", "not a save", "too new"])
def test_bad_save_errors_point_into_the_file(book, tmp_path, case):
    change, _ = CASES[case]
    path = corrupt(tmp_path, book, change)
    with pytest.raises(SaveError) as raised:
        load_game(book, path)
    span = raised.value.span
    assert span is not None and span.file == str(path) and span.line >= 1 and span.column >= 1
    assert raised.value.render().startswith(f"{path}:{span.line}:{span.column}: ")


OLD_RULE = Path(__file__).parent / "save_fixtures"


def test_a_save_in_an_ally_fight_from_the_old_rule_still_loads():
    """A save written in the middle of a fight with ``l'ennemi frappe l'allié`` by the code
    before the ally took the hero's wound where it is taken (its log answered Luck on
    wounds meant for the ally, which are no longer asked): its log replays to another
    state, so it loads from its snapshot (the fight's paragraph, the hero's STAMINA and
    LUCK of the save) and plays on to the end."""
    book = load_book(OLD_RULE / "ally_old_rule.dd")
    game, report = load_game(book, OLD_RULE / "ally_old_rule.dsave")
    assert report.fallback and "another state" in report.divergence
    assert game.state.paragraph == 1
    assert game.state.hero.stats == {"SKILL": 7, "STAMINA": 2, "LUCK": 7}
    for _ in range(2000):
        item = game.next()
        if item is None:
            break
        if type(item).__name__.endswith("Prompt"):
            game.answer(False if type(item).__name__ == "YesNoPrompt" else 0)
    assert game.outcome in ("victory", "death")
