"""A refused answer is explained in the book's language (the plain player, end to end)."""

from __future__ import annotations

import io
import sys

import pytest
from dedale.cli import main

BOOKS = {
    "fr": """---
titre: Le passeur
langue: fr
jeu-de-règles: df-classic
---
§ 1
Un passeur attend au bord du fleuve.
-> 2 (payez 5 or, grisé) Payer le passeur
-> 2 Traverser à la nage

§ 2
Vous atteignez l'autre rive.
> victoire
""",
    "en": """---
title: The ferryman
language: en
ruleset: df-classic
---
§ 1
A ferryman waits by the river.
-> 2 (pay 5 gold, disabled) Pay the ferryman
-> 2 Swim across

§ 2
You reach the far bank.
> victory
""",
}


@pytest.mark.parametrize(
    ("lang", "unavailable", "missing"),
    [
        (
            "fr",
            "Impossible\u00a0: le choix 1 n'est pas possible\u00a0: coûte 5 Pièces d'or",
            "Impossible\u00a0: il n'y a pas de choix 7",
        ),
        (
            "en",
            "Not possible: choice 1 is not available: costs 5 Gold pieces",
            "Not possible: there is no choice 7",
        ),
    ],
)
def test_an_unavailable_or_missing_choice_is_refused_in_the_book_language(
    lang, unavailable, missing, tmp_path, monkeypatch, capsys
):
    path = tmp_path / "passeur.dd"
    path.write_text(BOOKS[lang], encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO("Ari\n1\n1\n7\n2\n"))
    code = main(
        ["play", str(path), "--plain", "--seed", "1", "--gender", "f", "--hero", "10", "20", "9"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert unavailable in out
    assert missing in out
    assert out.index(unavailable) < out.index(missing) < out.index("§ 2")
