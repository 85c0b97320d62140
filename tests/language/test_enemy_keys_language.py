"""An enemy line's missing or unknown value is named in the book's language, for the d20 and
Reliques enemy keys too (their names per language are the ruleset's data), with French
elision; a ruleset cannot give an enemy key a name no enemy line can hold; `règles: d20`
(the ruleset written under the wrong key) is one error, not a cascade."""

from __future__ import annotations

import io

import pytest
from dedale.errors import RulesetError
from dedale.game import Game
from dedale.i18n import translate
from dedale.plain.player import PlainPlayer
from dedale.rules import load_ruleset
from dedale.validator import validate_path

from .play_helpers import load_errors, load_text, write_book

D20_FRONT = "---\ntitre: t\nlangue: {lang}\njeu-de-règles: d20\n---\n"


def fr(text) -> str:
    return translate(text, "fr")


def test_a_d20_enemy_without_health_is_told_in_french_with_its_french_name(tmp_path):
    text = D20_FRONT.format(lang="fr") + "§ 1\n> ennemi Brigand CA 13 attaque +3 dégâts 1d8\n"
    (error,) = load_errors(tmp_path, text)
    assert fr(error.message) == "l'ennemi `Brigand` n'a pas de PV"
    assert "`Brigand PV 7`" in fr(error.hint)
    english = D20_FRONT.format(lang="en") + "§ 1\n> enemy Bandit AC 13 attack +3 damage 1d8\n"
    (error,) = load_errors(tmp_path, english)
    assert translate(error.message, "en") == "the enemy `Bandit` has no HP"


def test_a_missing_skill_elides_in_french(tmp_path):
    text = "---\ntitre: t\nlangue: fr\n---\n§ 1\n> ennemi GOBELIN ENDURANCE 6\n"
    (error,) = load_errors(tmp_path, text)
    assert fr(error.message) == "l'ennemi `GOBELIN` n'a pas d'HABILETÉ"
    assert fr(error.hint).startswith("donnez-en la valeur sous la forme `GOBELIN HABILETÉ 7`")


def test_the_list_of_enemy_values_is_in_the_books_language_and_writable(tmp_path):
    text = "---\ntitre: t\nlangue: fr\n---\n§ 1\n> ennemi GOBELIN FORCE 7 ENDURANCE 6\n"
    (error,) = load_errors(tmp_path, text)
    assert fr(error.hint).endswith("CHANCE, ENDURANCE, HABILETÉ")
    d20 = D20_FRONT.format(lang="fr") + "§ 1\n> ennemi Brigand classe d'armure 13 PV 8\n"
    (error,) = load_errors(tmp_path, d20)
    hint = fr(error.hint)
    assert "CA" in hint and "PV" in hint
    assert "classe d'armure" not in hint and "POINTS DE VIE" not in hint  # not one word


def test_a_ruleset_enemy_key_of_several_words_is_refused(tmp_path):
    yaml = (
        "extends: d20\nfight:\n  enemy_keys:\n"
        "    health: {names: {fr: PV, en: HP}, aliases: [points de vie]}\n"
    )
    (tmp_path / "rules.yaml").write_text(yaml, encoding="utf-8")
    with pytest.raises(RulesetError) as caught:
        load_ruleset("rules.yaml", base_dir=tmp_path)
    assert "points de vie" in fr(caught.value.message)
    assert caught.value.span.line == 4


def test_rules_naming_a_ruleset_is_one_error_not_a_cascade(tmp_path):
    text = (
        "---\ntitre: t\nlangue: fr\nrègles: d20\n---\n§ 1\n"
        "> ennemi Brigand CA 13 attaque +3 dégâts 1d8 PV 12\n-> 2 Suite\n§ 2\n> victoire\n"
    )
    report = validate_path(write_book(tmp_path, text, "livre.dd"), runs=0)
    errors = [f for f in report.findings if f.severity == "error"]
    assert [f.code for f in errors] == ["E003"]
    assert "jeu-de-règles" in fr(errors[0].hint)


def test_a_d20_fight_in_the_plain_player_shows_one_die_and_no_creation_echo(tmp_path):
    text = D20_FRONT.format(lang="fr") + (
        "§ 1\nUn brigand.\n> ennemi Brigand CA 12 attaque +2 dégâts 1d6 PV 8\n-> 2 Suite\n"
        "§ 2\nFin.\n> victoire\n"
    )
    book = load_text(tmp_path, text)
    game = Game.new(book, 3, name="Ari", lang="fr")
    out = io.StringIO()
    PlainPlayer(game, io.StringIO("1\n" * 5), out, echo=True).play()
    shown = out.getvalue().replace("\u00a0", " ").replace("\u202f", " ")
    assert "Vous lancez le dé : " in shown and "Brigand lance le dé : " in shown
    assert "lancez les dés" not in shown
    for line in shown.splitlines():
        if line.startswith("Vous lancez le dé : "):
            assert "=" not in line  # « 17 », not « 17 = 17 »
    assert "FORCE : 3d6 -> " in shown  # the creation roll, once
    assert "FORCE : 0 -> " not in shown


@pytest.mark.parametrize(
    ("ruleset", "line", "message"),
    [
        (
            "df-classic",
            "> ennemi ORQUE HABILETÉ 5 ENDURANCE 0",
            "l'ennemi `ORQUE` commence le combat avec 0 en ENDURANCE : il serait vaincu "
            "avant le premier assaut",
        ),
        (
            "d20",
            "> ennemi Brigand CA 12 attaque +2 dégâts 1d6 PV 0",
            "l'ennemi `Brigand` commence le combat avec 0 en PV : il serait vaincu "
            "avant le premier assaut",
        ),
        (  # no health written: 5 x CON, computed by the ruleset's roll
            "reliques",
            "> ennemi S FOR 3 AGL 2 PER 2 CON 0",
            "l'ennemi `S` commence le combat avec 0 en SANTÉ : il serait vaincu "
            "avant le premier assaut",
        ),
        (
            "df-classic",
            "> ennemi ORQUE HABILETÉ -5 ENDURANCE 4",
            "HABILETÉ -5 est hors limites pour un ennemi",
        ),
    ],
)
def test_an_enemy_beaten_before_the_fight_or_below_0_is_a_load_error(
    tmp_path, ruleset, line, message
):
    head = f"---\ntitre: t\nlangue: fr\njeu-de-règles: {ruleset}\n---\n"
    text = head + f"§ 1\n{line}\n-> 2 x\n§ 2\n> victoire\n"
    (error,) = load_errors(tmp_path, text)
    assert fr(error.message).replace("\u00a0", " ") == message
    assert error.span.line == 7
