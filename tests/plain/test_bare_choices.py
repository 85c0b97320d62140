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
