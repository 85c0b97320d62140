"""Load a small single-file book and play it in the plain player (language tests that go
from the text to what the reader sees)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from dedale.errors import BookLoadError
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import PlainPlayer


def write_book(tmp_path: Path, text: str, name: str = "book.dd") -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


def load_text(tmp_path: Path, text: str):
    return load_book(write_book(tmp_path, text))


def load_errors(tmp_path: Path, text: str) -> list:
    with pytest.raises(BookLoadError) as caught:
        load_text(tmp_path, text)
    return caught.value.errors


def transcript(book, lines: str, lang: str = "en", force=(), hero=(10, 20, 9)) -> tuple[int, str]:
    """Play ``book`` in the plain player with ``lines`` typed in; (exit code, text shown)."""
    game = Game.new(book, 1, hero=hero, name="Ari", lang=lang)
    game.rng.force(list(force))
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return code, out.getvalue()
