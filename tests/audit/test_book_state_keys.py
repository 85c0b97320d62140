"""The audit of book.yaml's ``state:`` section (issue 13 §4): every key it documents — the
``flags:`` and ``counters:`` groups and each entry's ``name``, ``sheet``, ``start`` and
``max`` — has an effect the reader sees, written in English and in French. The keys are read
from the loader's own tables, so a key added without an effect check fails here."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.language.book_state import ENTRY_KEYS, SECTION_KEYS
from dedale.plain.player import PlainPlayer

BODY = (
    "§ 1\n> note calf following\n> add 5 to lieutenants met\n-> 2 (if calf following) Go on\n"
    "\n§ 2\n> victory\n"
)


def spell(key: str, french: bool, keys=ENTRY_KEYS) -> str:
    return keys.spell(key, french)


def book(root: Path, french: bool, flag: str = "{}", counter: str = "{}") -> Path:
    """A book declaring the flag ``calf following`` and the counter ``lieutenants met``
    with the settings given (written in French keys when ``french``)."""
    state, flags, counters = ("état", "drapeaux", "compteurs") if french else (
        "state", "flags", "counters")  # fmt: skip
    root.mkdir(parents=True, exist_ok=True)
    (root / "book.yaml").write_text(
        f"title: A book\nlanguage: en\n{state}:\n  {flags}:\n    calf following: {flag}\n"
        f"  {counters}:\n    lieutenants met: {counter}\n",
        "utf-8",
    )
    (root / "01.dd").write_text(BODY, "utf-8")
    return root


def sheet(folder: Path) -> str:
    """The plain player's transcript: the sheet asked at the first choice, then on."""
    game = Game.new(load_book(folder), 1, hero=(10, 20, 9), name="Ari")
    out = io.StringIO()
    PlainPlayer(game, io.StringIO("sheet\n1\n"), out, echo=True).play()
    return out.getvalue()


def _flags(root: Path, french: bool) -> None:
    assert "Notes: calf following" in sheet(book(root, french))


def _counters(root: Path, french: bool) -> None:
    assert "lieutenants met (5)" in sheet(book(root, french))


def _name(root: Path, french: bool) -> None:
    key = spell("name", french)
    text = sheet(book(root, french, f"{{{key}: The calf is with you}}", f"{{{key}: Met}}"))
    assert "Notes: The calf is with you, Met (5)" in text
    assert "Noted: The calf is with you." in text


def _sheet(root: Path, french: bool) -> None:
    key = spell("sheet", french)
    place, hidden = ("caractéristiques", "non") if french else ("stats", "no")
    text = sheet(book(root, french, f"{{{key}: {hidden}}}", f"{{{key}: {place}}}"))
    assert "  lieutenants met: 5" in text  # among the stats
    assert "Notes:" not in text and "Noted:" not in text  # the flag is not shown


def _start(root: Path, french: bool) -> None:
    key = spell("start", french)
    assert "lieutenants met (8)" in sheet(book(root, french, counter=f"{{{key}: 3}}"))


def _max(root: Path, french: bool) -> None:
    key = spell("max", french)
    assert "lieutenants met (2)" in sheet(book(root, french, counter=f"{{{key}: 2}}"))


EFFECTS: dict[str, Callable[[Path, bool], None]] = {
    "flags": _flags,
    "counters": _counters,
    "name": _name,
    "sheet": _sheet,
    "start": _start,
    "max": _max,
}


def test_every_state_key_has_an_effect_check():
    keys = [*SECTION_KEYS.keys, *ENTRY_KEYS.keys]
    assert sorted(keys) == sorted(EFFECTS)


@pytest.mark.parametrize("french", [False, True], ids=["en", "fr"])
@pytest.mark.parametrize("key", sorted(EFFECTS))
def test_the_state_key_has_an_effect(tmp_path, key, french):
    EFFECTS[key](tmp_path / "book", french)
