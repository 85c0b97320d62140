"""``dedale solve --walkthrough`` names a test whose ruleset gives its outcomes' own words
(Luck: lucky, unlucky) the way the book's reader says it; other tests keep "test passed"."""

from __future__ import annotations

import json

import pytest
from dedale.cli import main

NBSP = "\u00a0"
NNBSP = "\u202f"  # before % in a French number

BOOK = {
    "fr": (
        "titre: La Passerelle\nauteur: Moi\nlangue: fr\njeu-de-règles: df-classic\ndépart: 1\n",
        "§ 1\nUne passerelle pourrie.\n> tentez votre chance\n> {first} -> 2\n> {second} -> 3\n\n"
        "§ 2\nUne porte lourde.\n> tentez votre habileté\n> réussite -> 4\n> échec -> 3\n\n"
        "§ 3\nVous tombez.\n> mort\n\n§ 4\nVous voilà de l'autre côté.\n> victoire\n",
        ("chanceux", "malchanceux"),
    ),
    "en": (
        "title: The Walkway\nauthor: Me\nlanguage: en\nruleset: df-classic\nstart: 1\n",
        "§ 1\nA rotten walkway.\n> test your luck\n> {first} -> 2\n> {second} -> 3\n\n"
        "§ 2\nA heavy door.\n> test your skill\n> success -> 4\n> failure -> 3\n\n"
        "§ 3\nYou fall.\n> death\n\n§ 4\nYou are across.\n> victory\n",
        ("lucky", "unlucky"),
    ),
}


def _book(tmp_path, lang: str, luck_wins: bool) -> str:
    meta, text, (lucky, unlucky) = BOOK[lang]
    first, second = (lucky, unlucky) if luck_wins else (unlucky, lucky)
    folder = tmp_path / f"{lang}-{luck_wins}"
    folder.mkdir()
    (folder / "book.yaml").write_text(meta, encoding="utf-8")
    (folder / "book.dd").write_text(text.format(first=first, second=second), encoding="utf-8")
    return str(folder)


def _walk(capsys, book: str, *extra: str) -> str:
    assert main(["solve", book, "--hero", "7", "14", "7", "--walkthrough", *extra]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(
    ("lang", "luck_wins", "luck_line", "skill_line"),
    [
        ("fr", True, f"Tentez votre Chance{NBSP}: chanceux", "test réussi"),
        ("fr", False, f"Tentez votre Chance{NBSP}: malchanceux", "test réussi"),
        ("en", True, "Test your Luck: lucky", "test passed"),
        ("en", False, "Test your Luck: unlucky", "test passed"),
    ],
)
def test_a_luck_test_is_named_as_the_rules_name_it(
    capsys, tmp_path, lang, luck_wins, luck_line, skill_line
):
    out = _walk(capsys, _book(tmp_path, lang, luck_wins))
    lines = [line.strip() for line in out.splitlines()]
    head = "solution :".replace(" ", NBSP) if lang == "fr" else "walkthrough:"
    nothing = "(rien à décider)" if lang == "fr" else "(nothing to decide)"
    # with LUCK 7 the test is lucky 21 times in 36: the line taken is the more likely
    # winning one (lucky when "lucky" leads on, else unlucky, which then leads on)
    luck = 21 / 36 if luck_wins else 15 / 36
    first = f"{luck * 21 / 36:.4%}"
    second = f"{21 / 36:.4%}"
    if lang == "fr":
        first, second = (p[:-1].replace(".", ",") + NNBSP + "%" for p in (first, second))
    walk = lines[lines.index(head) + 1 :]
    assert walk == [
        f"§1  {nothing}  ({first})",
        luck_line,
        f"§2  {nothing}  ({second})",
        skill_line,  # a test without words of its own keeps the usual wording
        f"§4  {nothing}  ({'100,0000' + NNBSP + '%' if lang == 'fr' else '100.0000%'})",
    ]


def test_the_json_names_the_test(capsys, tmp_path):
    out = _walk(capsys, _book(tmp_path, "en", True), "--json")
    steps = json.loads(out)["walkthrough"]
    assert steps[0]["rolled"] == [{"kind": "test", "success": True, "test": "luck"}]
    assert steps[1]["rolled"] == [{"kind": "test", "success": True, "test": "skill"}]
