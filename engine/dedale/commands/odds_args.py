"""The ``dedale odds`` arguments of fights that are not FF-family (d20 and reliques)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from dedale.i18n import Number, number, tr, translate

DEFAULT_LANGUAGE = "fr"
"""The language of ``dedale odds``'s text when ``--lang`` is not given: French, as
``dedale new`` (the odds take no book whose language could say)."""


def language_argument(parser: argparse.ArgumentParser) -> None:
    """``--lang fr|en``: the language of the text output and of the refusals."""
    parser.add_argument(
        "--lang", choices=("fr", "en"), default=DEFAULT_LANGUAGE,
        help="language of the text output and of the errors (default fr; the JSON is the "
        "same in both)",
    )  # fmt: skip


def printer(lang: str) -> Callable[[Any], None]:
    """``print`` of a text (a ``tr`` message) in ``lang``."""
    return lambda text: print(translate(text, lang))


def percent(probability: float, width: int = 0) -> Number:
    """A probability as a percentage with two decimals (``12.34``; French ``12,34``)."""
    return number(probability * 100, f"{width}.2f" if width else ".2f")


def distribution_row(value: int, probability: float):
    """One row of a distribution after a win: the value and its chance."""
    return tr("  {value}  {percent} %", value=str(value).rjust(3), percent=percent(probability, 6))


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
