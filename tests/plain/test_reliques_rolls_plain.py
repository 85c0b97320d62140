"""A reliques fight in the plain player says what each duo roll had to beat (« au plus 10 :
marge +6 »), so that a higher initiative roll losing the initiative reads as the rule it
is, and counts its rounds in turns (« 1 tour »), as its lines do."""

from __future__ import annotations

import io
import re

from dedale.game import Game
from dedale.language import load_book
from dedale.plain.player import PlainPlayer

BOOK = """---
titre: La Crypte
langue: fr
jeu-de-règles: reliques
objets: [Épée]
---
§ 1
Un spectre.
> ennemi Spectre FOR 3 AGL 3 PER 2 CON 2 arme 2 protection 1
-> 2 Suite
§ 2
Fin.
> victoire
"""


def _played(tmp_path, seed: int) -> str:
    path = tmp_path / "crypte.dd"
    path.write_text(BOOK, encoding="utf-8")
    game = Game.new(load_book(path), seed, name="Ari", lang="fr")
    out = io.StringIO()
    PlainPlayer(game, io.StringIO("1\n" * 8), out, echo=True).play()
    return out.getvalue().replace("\u00a0", " ").replace("\u202f", " ")


def test_each_duo_roll_says_its_target_and_margin(tmp_path):
    shown = _played(tmp_path, 5)
    rolls = re.findall(r"(\d+) \(au plus (\d+) : marge ([+-]\d+)\)", shown)
    assert rolls, shown
    for total, target, margin in rolls:
        assert int(margin) == int(target) - int(total)
    assert "Votre initiative : " in shown and "Initiative de Spectre : " in shown


def test_a_reliques_fight_counts_turns(tmp_path):
    shown = _played(tmp_path, 5)
    assert re.search(r"Vous remportez le combat \(\d+ tours?\)", shown), shown
    assert "assaut" not in shown
