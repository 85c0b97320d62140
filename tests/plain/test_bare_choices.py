"""A choice written with no text (``-> 12``) reads "Turn to 12" / "Rendez-vous au 12"
(docs/language.md §4), in the plain player; the Textual side is in tests/player."""

from __future__ import annotations

import io

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import PlainPlayer

BOOK = """---
title: {title}
language: {lang}
ruleset: df-classic
start: 1
---
§ 1
{prose}
-> 12
-> 3 {right}

§ 12
> {win}

§ 3
> {win}
"""
LANGS = {
    "en": dict(title="Bare", prose="A fork.", right="Go right", win="victory"),
    "fr": dict(title="Nu", prose="Une fourche.", right="Allez à droite", win="victoire"),
}


@pytest.mark.parametrize(("lang", "expected"), [("en", "Turn to 12"), ("fr", "Rendez-vous au 12")])
def test_a_choice_with_no_text_says_where_it_goes(tmp_path, lang, expected):
    path = tmp_path / "bare.dd"
    path.write_text(BOOK.format(lang=lang, **LANGS[lang]), encoding="utf-8")
    game = Game.new(load_book(path), 1, hero=(10, 20, 9), name="Ari")
    out = io.StringIO()
    code = PlainPlayer(game, io.StringIO("1\n"), out, echo=True).play()
    lines = out.getvalue().splitlines()
    assert f"  1. {expected}" in lines
    assert "  1. " not in lines and "  1." not in lines
    assert code == 0  # turned to 12: victory


TURN_TO_BOOK = """---
title: Compte
language: {lang}
ruleset: df-classic
start: 1
---
§ 1
A well with a bucket.
-> 12 Climb down
-> [gold + 7] Throw your gold in

§ 12
> victory
"""


def _plain_cli(path, *flags: str) -> list[str]:
    import subprocess
    import sys

    command = [sys.executable, "-m", "dedale", "play", "--plain", str(path), *flags]
    command += ["--seed", "1", "--hero", "10", "20", "9", "--name", "Ari"]
    result = subprocess.run(command, input="1\n", capture_output=True, text=True, timeout=60)
    return result.stdout.splitlines()


@pytest.mark.parametrize(
    ("lang", "flags", "expected"),
    [
        ("fr", (), "  1. Climb down (rendez-vous au 12)"),  # on by default for a French book
        ("fr", ("--no-turn-to",), "  1. Climb down"),
        ("en", (), "  1. Climb down"),
        ("en", ("--turn-to",), "  1. Climb down (turn to 12)"),
    ],
)
def test_turn_to_prints_where_a_choice_leads_but_never_a_computed_one(
    tmp_path, lang, flags, expected
):
    path = tmp_path / "well.dd"
    path.write_text(TURN_TO_BOOK.format(lang=lang), encoding="utf-8")
    lines = _plain_cli(path, *flags)
    assert expected in lines
    assert "  2. Throw your gold in" in lines  # computed: the number is the reader's puzzle
