"""``dedale play --plain``: load the book, create the game, run the plain player."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from dedale.commands.books import resolve_book
from dedale.errors import BookError, DedaleError, GameError, UsageError
from dedale.game import Game
from dedale.game.saving import load_game
from dedale.i18n import message, tr
from dedale.plain import screen_reader
from dedale.plain.player import EXIT_BOOK_ERROR, EXIT_USAGE, PlainPlayer
from dedale.player.options import creation_options, show_targets


def _book_of_save(save: str) -> Path:
    """The book a save records (so that ``--load SAVE`` needs no BOOK)."""
    from dedale.saves import read_save

    recorded = read_save(save).extra.get("book_path")
    if not isinstance(recorded, str):
        raise UsageError(tr("the save does not record its book"), hint=tr("give the BOOK to play"))
    return Path(recorded)


def seed_from_entropy() -> int:
    """A fresh seed for a game (the only place that uses the system's entropy)."""
    import os

    return int.from_bytes(os.urandom(4), "big")


def run_plain(args: argparse.Namespace) -> int:
    """Run the plain player with the ``dedale play`` arguments; returns the exit code."""
    from dedale.language import load_book

    if args.book:
        path = resolve_book(args.book)  # a path, or a bundled book's name
    elif getattr(args, "load", None):
        path = _book_of_save(args.load)
    else:
        path = resolve_book(None)
    if not path.exists():
        print(tr("dedale play: no book at {path}", path=str(path)).translate(args.lang or "fr"),
              file=sys.stderr)  # fmt: skip
        return EXIT_USAGE
    try:
        book = load_book(path)
    except DedaleError as error:
        from dedale.cli import error_language

        print(error.render(lang=error_language(args, error)), file=sys.stderr)
        return EXIT_BOOK_ERROR if isinstance(error, BookError) else EXIT_USAGE
    seed = args.seed if args.seed is not None else seed_from_entropy()
    try:
        if getattr(args, "load", None):
            game, report = load_game(book, args.load)
            if report.divergence:
                print(message(game.lang, "plain.divergence", reason=report.divergence))
        else:
            game = Game.new(
                book, seed, hero=tuple(args.hero) if args.hero else None,
                class_name=args.class_name, name=args.name, lang=args.lang,
                **creation_options(args),
            )  # fmt: skip
    except GameError as error:
        lang = args.lang or book.meta.language
        print(f"dedale play: {error.render(lang=lang)}", file=sys.stderr)
        return EXIT_USAGE
    if args.lang:
        game.lang = args.lang
    args.game_played = game  # dedale play --record writes it as a plan at the end
    reader = screen_reader.wanted(getattr(args, "screen_reader", False), os.environ)
    echo = not sys.stdin.isatty()
    gender = getattr(args, "gender", None)
    player = PlainPlayer(
        game, sys.stdin, sys.stdout, echo=echo, screen_reader=reader, gender=gender
    )
    player.render.turn_to = show_targets(getattr(args, "turn_to", None), book.meta.language)
    try:
        return player.play()  # a closed output pipe (`| head`) is handled once, in dedale.cli
    except GameError as error:
        sys.stdout.flush()
        print(error.render(lang=game.lang), file=sys.stderr)
        return EXIT_BOOK_ERROR
