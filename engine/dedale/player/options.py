"""Command-line options that only the Textual player uses (no Textual import here: the
``dedale`` parser declares them for every run)."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_player_arguments(parser: argparse.ArgumentParser) -> None:
    """``--playtest``, ``--watch``, ``--save-dir``, ``--no-odds``."""
    group = parser.add_argument_group("Textual player")
    group.add_argument(
        "--playtest",
        action="store_true",
        help="author tools: undo, jump, edit stats, force dice, show the source location",
    )
    group.add_argument("--watch", action="store_true", help="reload the book when its files change")
    group.add_argument(
        "--save-dir",
        type=Path,
        default=None,
        help="folder of the save slots (default: $DEDALE_SAVE_DIR or ~/.local/share/dedale)",
    )
    group.add_argument(
        "--no-odds", action="store_true", help="hide the chance-of-winning hint in fights"
    )
    parser.add_argument(
        "--turn-to",
        action=argparse.BooleanOptionalAction,
        default=None,
        help='choices say where they lead, as a printed book does ("Turn to 7"); both players '
        "(default: on for a French book)",
    )


def show_targets(flag: bool | None, book_language: str | None) -> bool:
    """Whether the choices print their paragraph numbers: ``--turn-to`` / ``--no-turn-to``,
    else on for a French book (issue 16.3)."""
    if flag is not None:
        return flag
    return (book_language or "").lower().replace("_", "-").split("-")[0] == "fr"


def creation_options(args: argparse.Namespace) -> dict[str, object]:
    """Extra ``Game.new`` options from the command line, for both players.

    In playtest mode ``--hero`` may give stats outside the range the ruleset's creation can
    roll (``free_stats=True``, issue 12.15)."""
    return {"free_stats": True} if getattr(args, "playtest", False) else {}
