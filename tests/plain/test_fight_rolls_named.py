"""A reliques fight's dice say whose initiative, dodge or parry they are (they read "Dés :"
with nothing to tell the hero's roll from the enemy's)."""

from __future__ import annotations

import io
import sys

import pytest
from dedale.cli import main

BOOK = """---
titre: La crypte
langue: {lang}
jeu-de-règles: reliques
---
§ 1
Un spectre.
> combat
> ennemi la GOULE FOR 3 AGL 4 PER 2 CON 3 arme 2 protection 1
> victoire -> 2

§ 2
> victoire
"""


@pytest.mark.parametrize(
    ("lang", "hero", "enemy"),
    [("fr", "Votre initiative\u00a0: ", "Initiative de la GOULE\u00a0: "),
     ("en", "Your initiative: ", "Initiative of GOULE: ")],
)  # fmt: skip
def test_the_initiative_rolls_are_named(lang, hero, enemy, tmp_path, monkeypatch, capsys):
    path = tmp_path / "crypte.dd"
    path.write_text(BOOK.format(lang=lang), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("Ari\n" + "n\n" * 60))
    main(["play", str(path), "--plain", "--seed", "4", "--gender", "f", "--lang", lang])
    out = capsys.readouterr().out
    assert hero in out and enemy in out
    assert out.index(hero) < out.index(enemy)
    assert "Dés\u00a0:" not in out and "Dice:" not in out
