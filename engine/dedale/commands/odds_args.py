"""The ``dedale odds`` arguments of fights that are not FF-family (d20 and reliques)."""

from __future__ import annotations

import argparse


def other_fight_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of fights that are not FF-family: d20 (:mod:`dedale.commands.odds_d20`)
    and reliques (:mod:`dedale.commands.odds_reliques`); each reads ``--foe`` its own way."""
    group = parser.add_argument_group("d20 and reliques fights")
    group.add_argument(
        "--stat", "--stats", action="append", default=[], metavar="NAME=VALUE",
        help="the hero's stat (repeat, or NAME=VALUE,NAME=VALUE: FOR=14, DEX=12, HP=20)",
    )  # fmt: skip
    group.add_argument(
        "--item", "--items", action="append", default=[], metavar="NAME",
        help="an item the hero holds: a weapon, armour, a shield (repeat, or a comma list)",
    )  # fmt: skip
    group.add_argument(
        "--foe", action="append", default=[], metavar="ENEMY",
        help="an enemy (repeat for several); d20: as a book's `> enemy` line writes it "
        "('Guard AC 13 attack +3 damage 1d6 HP 10'); reliques: FOR=3,AGL=2,PER=2,CON=2,arme=2",
    )  # fmt: skip
    group.add_argument(
        "--escape-after",
        type=int,
        metavar="N",
        help="a way out: escape offered after N assaults (turns; FF-family fights too)",
    )
    group.add_argument("--courage", type=int, metavar="N", help="reliques: heroism points")
    group.add_argument(
        "--threshold", type=int, metavar="N",
        help="a way out when the hero's health falls to N or less after an assault (reliques, "
        "and FF-family fights: when your STAMINA falls to N)",
    )  # fmt: skip


def listed(values: list[str]) -> list[str]:
    """Repeated options whose values may also be comma lists, as one list."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]
