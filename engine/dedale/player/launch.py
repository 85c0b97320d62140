"""Build the app from ``dedale play`` arguments: load the book, make the game factory."""

from __future__ import annotations

import argparse
import secrets
from pathlib import Path
from typing import Any

from dedale.errors import UsageError
from dedale.i18n import tr
from dedale.player.app import DedaleApp
from dedale.player.options import creation_options
from dedale.player.preview import read_preview
from dedale.player.slots import SaveSlots, default_save_dir


def book_path(args: argparse.Namespace) -> Path:
    """The BOOK argument (a path, or a bundled book's name), or the bundled default book."""
    from dedale.commands.books import resolve_book

    return resolve_book(getattr(args, "book", None))


def build_app(args: argparse.Namespace) -> DedaleApp:
    """The player app for these arguments (raises DedaleError if the book does not load)."""
    path = book_path(args)
    if not path.exists():
        raise UsageError(tr("no book at {path}", path=path))
    seed = getattr(args, "seed", None)
    seed = int(seed) if seed is not None else secrets.randbelow(2**31)
    hero = getattr(args, "hero", None)
    lang = getattr(args, "lang", None)
    if lang is not None and lang not in {"fr", "en"}:
        raise UsageError(tr("--lang must be fr or en, not '{lang}'", lang=lang))

    extra = creation_options(args)

    def new_game(current_book: Any) -> Any:
        from dedale.game import Game

        return Game.new(
            current_book,
            seed,
            hero=tuple(hero) if hero else None,
            class_name=getattr(args, "class_name", None),
            name=getattr(args, "name", None),
            lang=lang,
            **extra,
        )

    def load() -> Any:
        from dedale.language import load_book

        return load_book(path)

    folder = getattr(args, "save_dir", None) or default_save_dir()
    slots = SaveSlots(Path(folder), path.resolve().stem if path.is_file() else path.resolve().name)
    watch = bool(getattr(args, "watch", False))
    app = DedaleApp(
        read_preview(path),
        new_game,
        lang=lang,
        slots=slots,
        playtest=bool(getattr(args, "playtest", False)),
        watch_root=path if watch else None,
        reload_book=load if watch else None,
        load_book=load,
        show_odds=not getattr(args, "no_odds", False),
        turn_to=getattr(args, "turn_to", None),
        initial_save=Path(args.load) if getattr(args, "load", None) else None,
    )
    app.texts.chosen_gender = getattr(args, "gender", None)  # the player's, over the book's
    app.gender_flag = app.texts.chosen_gender
    return app
