"""Build the app from ``dedale play`` arguments: load the book, make the game factory."""

from __future__ import annotations

import argparse
import secrets
from importlib import resources
from pathlib import Path
from typing import Any

from dedale.errors import UsageError
from dedale.player.app import DedaleApp
from dedale.player.book_view import BookView
from dedale.player.slots import SaveSlots, default_save_dir

DEFAULT_BOOK = "tutorial"


def book_path(args: argparse.Namespace) -> Path:
    """The BOOK argument, or the bundled default book."""
    given = getattr(args, "book", None)
    if given:
        return Path(given)
    return Path(str(resources.files("dedale.books").joinpath(DEFAULT_BOOK)))


def build_app(args: argparse.Namespace) -> DedaleApp:
    """The player app for these arguments (raises DedaleError if the book does not load)."""
    from dedale.game import Game
    from dedale.language import load_book

    path = book_path(args)
    book = load_book(path)
    seed = getattr(args, "seed", None)
    seed = int(seed) if seed is not None else secrets.randbelow(2**31)
    hero = getattr(args, "hero", None)
    lang = getattr(args, "lang", None)
    if lang is not None and lang not in {"fr", "en"}:
        raise UsageError(f"--lang must be fr or en, not {lang!r}")

    def new_game(current_book: Any) -> Any:
        return Game.new(
            current_book,
            seed,
            hero=tuple(hero) if hero else None,
            class_name=getattr(args, "class_name", None),
            name=getattr(args, "name", None),
            lang=lang,
        )

    folder = getattr(args, "save_dir", None) or default_save_dir()
    slots = SaveSlots(Path(folder), BookView(book).identity)
    watch = bool(getattr(args, "watch", False))
    return DedaleApp(
        book,
        new_game,
        lang=lang,
        slots=slots,
        playtest=bool(getattr(args, "playtest", False)),
        watch_root=path if watch else None,
        reload_book=(lambda: load_book(path)) if watch else None,
        show_odds=not getattr(args, "no_odds", False),
        initial_save=Path(args.load) if getattr(args, "load", None) else None,
    )
