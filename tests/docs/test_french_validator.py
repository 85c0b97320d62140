"""docs/fr/validateur.md stays in step with docs/validator.md, and its French examples say
what ``dedale validate`` says.

- the same finding codes, each with its anchor (``<a id="w013">``), and the same headings
  at each level (``##``, ``###``, ``####``), in the same number;
- each French example below is a book written from the page (its rule lines), validated for
  real: the message of the finding the page shows is in the page, word for word (spaces,
  no-break spaces and line breaks aside).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from dedale.cli import main

ROOT = Path(__file__).resolve().parents[2]
ENGLISH = ROOT / "docs" / "validator.md"
FRENCH = ROOT / "docs" / "fr" / "validateur.md"

_ANCHOR = re.compile(r'<a id="([a-z]\d{3})"></a>')


def _headings(text: str) -> list[int]:
    fenced = False
    levels = []
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{2,4} ", line):
            levels.append(len(line.split(" ", 1)[0]))
    return levels


def _flat(text: str) -> str:
    """The text with every run of spaces (no-break ones, line breaks) as one space."""
    return re.sub(r"[\s\u00a0\u202f]+", " ", text)


def test_the_same_codes_and_sections():
    english, french = ENGLISH.read_text("utf-8"), FRENCH.read_text("utf-8")
    assert sorted(_ANCHOR.findall(french)) == sorted(_ANCHOR.findall(english))
    assert _headings(french) == _headings(english)


def test_the_french_index_links_it():
    index = (ROOT / "docs" / "fr" / "README.md").read_text("utf-8")
    assert "](validateur.md)" in index


# code (and ruleset, when not df-classic): the book's paragraphs as the page writes them
EXAMPLES = {
    "W013": "§ 1\n> combat LOUP HABILETÉ 5 ENDURANCE 4\n> victoire -> 2\n§ 2\n> victoire\n"
    "§ 3\n> rendez-vous au 4\n§ 4\n-> 5 Continuer\n-> 6 Revenir\n§ 5\n> mort\n§ 6\n> victoire\n",
    "E014": "§ 1\n-> 7 Descendre\n§ 6\n> victoire\n§ 7\n> tentez votre chance\n"
    "> chanceux -> 6\n> malchanceux : perdez 2 ENDURANCE\nVous glissez au bas des marches.\n",
    "E023": "§ 1\n> prenez Clé de fer\n> notez mot-code NOCTIS\n-> 2 Continuer\n§ 2\n"
    "-> 3 (si Cle en fer) Ouvrir\n-> 3 (si mot-code NOCTIX) Parler\n-> 3 Passer\n§ 3\n"
    "> victoire\n",
    "W030": "§ 1\n-> 2 L'escalier de gauche\n-> 3 L'escalier de droite\n§ 2\n"
    "> prenez Épée d'argent (arme, HABILETÉ +2)\n-> 4 Descendre\n§ 3\n-> 4 Descendre\n§ 4\n"
    "> combat GARDIEN D'OS HABILETÉ 12 ENDURANCE 16\n> victoire -> 5\n§ 5\n> victoire\n",
    "W032": "§ 1\n> combat\n> ennemi GÉANT HABILETÉ 9 ENDURANCE 9999\n> victoire -> 2\n"
    "§ 2\n> victoire\n",
    "E070": "§ 1\n-> 2 Entrer\n§ 2\n> rendez-vous au 3\n§ 3\n> rendez-vous au 2\n§ 9\n> victoire\n",
    "W071": "§ 1\n-> 3 Entrer\n-> 2 Chercher\n§ 2\n> notez mot-code AURORE\n-> 3 Entrer\n"
    "§ 3\n> rendez-vous au 4\n§ 4\n> si mot-code AURORE : rendez-vous au 5\n"
    "> rendez-vous au 3\n§ 5\n> victoire\n",
    "I100": "§ 1\n> tentez votre habileté (jusqu'à réussite)\n> échec : perdez 3 ENDURANCE\n"
    "> réussite -> 2\n§ 2\n> victoire\n",
    "W101": "§ 1\n> tentez votre chance (jusqu'à réussite)\n> chanceux -> 2\n§ 2\n> victoire\n",
    "W080": "§ 1\n> gagnez 3 or\n-> 2 Continuer\n§ 2\n-> 3 (payez 20 or) Payer le passeur\n"
    "-> 4 Nager\n§ 3\n> victoire\n§ 4\n> victoire\n",
    "W081": "§ 1\n-> 2 (si HABILETÉ >= 13) Sauter au sommet\n-> 3 Contourner\n§ 2\n"
    "> victoire\n§ 3\n> victoire\n",
    "W082": "§ 1\n> gagnez 2 HABILETÉ\n-> 2 Continuer\n§ 2\n> victoire\n",
    "W083": "§ 1\n> perdez 10 repas\n-> 2 Remonter\n§ 2\n"
    "> mangez un repas ou perdez 3 ENDURANCE\n-> 3 Continuer\n§ 3\n> victoire\n",
    "W084": "§ 1\n> perdez 30 ENDURANCE\n-> 2 Ramper vers le tunnel\n§ 2\n> victoire\n",
    "W086": "§ 1\n> prenez Lanterne\n-> 2 Continuer\n§ 2\n"
    "-> 3 (donnez Lanterne) Lui donner la lanterne\n-> 3 Passer votre chemin\n§ 3\n"
    "-> 4 (si Lanterne) Éclairer la descente\n-> 5 Sauter dans le noir\n§ 4\n> victoire\n"
    "§ 5\n> mort\n",
    "W030 reliques": "§ 1\n> prenez épée\n> prenez cuir\n-> 2 Monter\n§ 2\n> combat\n"
    "> ennemi SPECTRE FORCE 5 AGILITÉ 4 PERCEPTION 6 CONSTITUTION 2 arme 6 protection 1\n"
    "> victoire -> 3\n§ 3\n> victoire\n",
    "W087": "§ 1\n> prenez Corde\n-> 2 Continuer\n§ 2\n> abandonnez Cordes\n-> 3 Continuer\n"
    "§ 3\n> victoire\n",
}


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_the_french_example_says_what_the_validator_says(capsys, tmp_path, monkeypatch, example):
    code, _, ruleset = example.partition(" ")  # "W030 reliques": another ruleset
    book = tmp_path / "livre.dd"
    head = f"---\ntitre: Exemple\nlangue: fr\njeu-de-règles: {ruleset or 'df-classic'}\n---\n"
    book.write_text(head + EXAMPLES[example], encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # the message names the file as given: livre.dd
    main(["validate", book.name, "--format", "json", "--runs", "0"])
    findings = json.loads(capsys.readouterr().out)["books"][0]["findings"]
    messages = [f["message"] for f in findings if f["code"] == code]
    assert messages, findings
    page = _flat(FRENCH.read_text("utf-8"))
    for message in messages:
        assert _flat(message) in page
