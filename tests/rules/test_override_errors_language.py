"""A mistake in a book's ruleset overrides (``règles:`` / ``rules:`` of book.yaml) is told in
the book's language, at its line and column, with a hint: a French author gets French."""

from __future__ import annotations

import io
import json

import pytest
from dedale.cli import main

NBSP = "\u00a0"  # before : in French
NNBSP = "\u202f"  # before ? in French

HEAD = {
    "fr": "titre: Essai\nlangue: fr\njeu-de-règles: df-classic\ndépart: 1\nrègles:\n",
    "en": "title: Trial\nlanguage: en\nruleset: df-classic\nstart: 1\nrules:\n",
}

# (override lines under the rules key, line, column, French message and hint, English ones)
CASES = {
    "wrong type": (
        "  inventory_limit: zéro\n", 6, 20,
        ("inventory_limit doit être un nombre entier, pas 'zéro'", f"par exemple{NBSP}: 2"),
        ("inventory_limit must be a whole number, not 'zéro'", "for example: 2"),
    ),
    "unknown key": (
        "  stats:\n    SKILL:\n      rol: 1d6+6\n", 8, 7,
        ("clé inconnue `rol` dans la caractéristique SKILL", f"vouliez-vous dire `roll`{NNBSP}?"),
        ("unknown key `rol` in stat SKILL", "did you mean `roll`?"),
    ),
    "below the range": (
        "  counters:\n    gold:\n      initial: -3\n", 8, 16,
        ("initial doit valoir au moins 0", "initial va de 0 à 999999"),
        ("initial must be at least 0", "initial is from 0 to 999999"),
    ),
    "above the range": (
        "  inventory_limit: 100000\n", 6, 20,
        ("inventory_limit ne peut pas valoir 100000", "inventory_limit va de 1 à 9999"),
        ("inventory_limit cannot be 100000", "inventory_limit is from 1 to 9999"),
    ),
    "unknown stat": (
        "  tests:\n    luck:\n      stat: CHANCE\n", 8, 13,
        ("caractéristique inconnue `CHANCE`",
         f"caractéristiques connues{NBSP}: SKILL, STAMINA, LUCK"),
        ("unknown stat `CHANCE`", "known stats: SKILL, STAMINA, LUCK"),
    ),
    "not true or false": (
        "  worlds: peut-être\n", 6, 11,
        ("worlds doit valoir true ou false, pas 'peut-être'", "écrivez true ou false"),
        ("worlds must be true or false, not 'peut-être'", "write true or false"),
    ),
    "missing key": (
        "  tests:\n    courage:\n      dice: 2d6\n", 8, 7,
        ("le test courage demande `stat`", f"ajoutez `stat{NBSP}: LUCK`"),
        ("test courage needs `stat`", "add `stat: LUCK`"),
    ),
    "not a mapping": (
        "  meals: 4\n", 6, 10,
        (f"meals doit être un ensemble de `clé{NBSP}: valeur`",
         f"par exemple{NBSP}: {{counter: meals, heal: 4}}"),
        ("meals must be a mapping", "for example: {counter: meals, heal: 4}"),
    ),
    "unknown item kind": (
        "  items:\n    arc:\n      kind: arme\n", 8, 13,
        ("sorte d'objet inconnue `arme`", f"vouliez-vous dire `armour`{NNBSP}?"),
        ("unknown item kind `arme`", "did you mean `armour`?"),
    ),
    "unknown procedure": (
        "  fight:\n    procedure: opposé\n", 7, 16,
        ("procédure de combat inconnue `opposé`", f"vouliez-vous dire `opposed`{NNBSP}?"),
        ("unknown fight procedure `opposé`", "did you mean `opposed`?"),
    ),
    "unknown ability effect": (
        "  classes:\n    Guerrier:\n      abilities:\n        - {when: fight, effect: atack}\n",
        9, 33,
        ("effet inconnu `atack` pour le déclencheur `fight`",
         f"`fight` accepte{NBSP}: attack_bonus, damage_bonus"),
        ("unknown effect `atack` for trigger `fight`",
         "`fight` accepts: attack_bonus, damage_bonus"),
    ),
}  # fmt: skip


def _book(tmp_path, lang: str, override: str) -> str:
    folder = tmp_path / lang
    folder.mkdir()
    (folder / "book.yaml").write_text(HEAD[lang] + override, encoding="utf-8")
    (folder / "a.dd").write_text("§ 1\n> victoire\n" if lang == "fr" else "§ 1\n> victory\n")
    return str(folder)


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_validate_tells_the_override_mistake_in_the_book_language(capsys, tmp_path, case, lang):
    override, line, column, fr, en = CASES[case]
    assert main(["validate", _book(tmp_path, lang, override), "--format", "json"]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["books"][0]["findings"]
    assert finding["file"].endswith("book.yaml")
    assert (finding["line"], finding["column"]) == (line, column)
    assert (finding["message"], finding["hint"]) == (fr if lang == "fr" else en)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_play_says_it_too_and_the_fixed_book_loads(capsys, tmp_path, lang, monkeypatch):
    override, line, column, fr, en = CASES["unknown key"]
    book = _book(tmp_path, lang, override)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--plain", book]) == 1
    err = capsys.readouterr().err
    message, hint = fr if lang == "fr" else en
    label = f"conseil{NBSP}: " if lang == "fr" else "hint: "
    assert f"book.yaml:{line}:{column}: {message}" in err and f"{label}{hint}" in err
    fixed = (tmp_path / lang / "book.yaml").read_text("utf-8").replace("rol:", "roll:")
    (tmp_path / lang / "book.yaml").write_text(fixed, encoding="utf-8")
    assert main(["validate", book, "--format", "json", "--runs", "0"]) == 0


def test_a_ruleset_file_of_a_french_book_is_answered_in_french(capsys, tmp_path):
    folder = tmp_path / "livre"
    folder.mkdir()
    (folder / "book.yaml").write_text(
        "titre: Essai\nlangue: fr\njeu-de-règles: mes-regles.yaml\ndépart: 1\n", encoding="utf-8"
    )
    (folder / "mes-regles.yaml").write_text(
        "extends: df-classic\nname: mes-regles\nstats:\n  LUCK:\n    may_exceed_initial: oui\n",
        encoding="utf-8",
    )
    (folder / "a.dd").write_text("§ 1\n> victoire\n", encoding="utf-8")
    assert main(["validate", str(folder), "--format", "json"]) == 1
    (finding,) = json.loads(capsys.readouterr().out)["books"][0]["findings"]
    assert finding["file"].endswith("mes-regles.yaml")
    assert (finding["line"], finding["column"]) == (5, 25)
    assert finding["message"] == "may_exceed_initial doit valoir true ou false, pas 'oui'"
    assert finding["hint"] == "écrivez true ou false"


@pytest.mark.parametrize(
    ("override", "line", "column", "fr", "en"),
    [
        ("  inventory_limit: 3\n   meals: {heal: 2}\n", 7, 9,
         "une paire `clé\u00a0: valeur` n'est pas permise ici",
         "mapping values are not allowed here"),
        ("  inventory_limit: 3\n  inventory_limit: 4\n", 7, 3,
         "la clé «\u00a0inventory_limit\u00a0» est écrite deux fois, "
         "avec la valeur «\u00a04\u00a0» (la première\u00a0: «\u00a03\u00a0»)",
         'found duplicate key "inventory_limit" with value "4" (original value: "3")'),
        ("\tinventory_limit: 3\n", 6, 1,
         "le caractère '\\t' ne peut commencer ni une clé ni une valeur",
         "found character '\\t' that cannot start any token"),
        ("  meals: {heal: 2\n", 7, 1,
         "«\u00a0,\u00a0» ou «\u00a0}\u00a0» était attendu, "
         "mais on trouve «\u00a0<stream end>\u00a0»",
         "expected ',' or '}', but got '<stream end>'"),
    ],
)  # fmt: skip
def test_a_yaml_mistake_under_the_rules_key_is_told_in_the_book_language(
    capsys, tmp_path, override, line, column, fr, en
):
    """ruamel's own words, in English as ruamel writes them, in French from the catalogue."""
    for lang, problem in (("fr", fr), ("en", en)):
        assert main(["validate", _book(tmp_path, lang, override), "--format", "json"]) == 1
        (finding,) = json.loads(capsys.readouterr().out)["books"][0]["findings"]
        assert (finding["line"], finding["column"]) == (line, column)
        head = f"erreur YAML{NBSP}: " if lang == "fr" else "YAML error: "
        assert finding["message"].startswith(head) and problem in finding["message"]
