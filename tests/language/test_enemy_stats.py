"""Enemy lines whose stats are misspelt or missing are load errors (issue 12.5), never a
fight against 0. What a fight needs comes from the ruleset's fight section."""

from __future__ import annotations

import pytest
from dedale.validator import validate_path

from .play_helpers import load_errors, load_text, write_book


def head(ruleset: str = "df-classic", lang: str = "fr") -> str:
    return f"---\ntitle: t\nruleset: {ruleset}\nlanguage: {lang}\n---\n"


def test_a_misspelt_stat_is_a_load_error_with_did_you_mean(tmp_path):
    text = head() + "§ 1\n> combat\n> ennemi GOBELIN HABILITÉ 7 ENDURANCE 6\n> victoire -> 2\n"
    text += "§ 2\n> victoire\n"
    (error,) = load_errors(tmp_path, text)
    assert error.message == "unknown enemy stat `HABILITÉ`"
    assert error.hint == "did you mean `HABILETÉ`?"
    assert (error.span.line, error.span.column, error.span.end_column) == (8, 18, 26)
    report = validate_path(write_book(tmp_path, text, "again.dd"), runs=0)
    assert report.count("error") == 1
    assert any("HABILITÉ" in f.message for f in report.findings)


def test_a_missing_stat_names_it_in_the_authors_language(tmp_path):
    (error,) = load_errors(tmp_path, head() + "§ 1\n> combat\n> ennemi GOBELIN ENDURANCE 6\n")
    assert error.message == "the enemy `GOBELIN` has no HABILETÉ"
    assert "`GOBELIN HABILETÉ 7`" in error.hint
    (error,) = load_errors(tmp_path, head() + "§ 1\n> fight\n> enemy GOBLIN SKILL 7\n")
    assert error.message == "the enemy `GOBLIN` has no STAMINA"


def test_an_ally_is_checked_like_an_enemy(tmp_path):
    text = head(lang="en") + "§ 1\n> fight ORC SKILL 6 STAMINA 5\n> ally BRAN SKIL 8 STAMINA 9\n"
    (error,) = load_errors(tmp_path, text)
    assert error.message == "unknown enemy stat `SKIL`" and error.hint == "did you mean `SKILL`?"


def test_attack_with_another_stat_needs_that_stat_not_skill(tmp_path):
    rules = "rules:\n  stats:\n    MAGIC: {names: {en: MAGIC, fr: MAGIE}, roll: 1d6}\n"
    front = head(lang="en").replace("language: en\n", "language: en\n" + rules)
    book = load_text(
        tmp_path, front + "§ 1\n> fight DEMON MAGIC 5 STAMINA 2\n> attack with MAGIC\n> win -> 2\n"
        "§ 2\n> victory\n",
    )  # fmt: skip
    assert book.paragraphs[1].body[0].enemies[0].stats == (("MAGIC", 5), ("STAMINA", 2))
    (error,) = load_errors(
        tmp_path, front + "§ 1\n> fight DEMON SKILL 5 STAMINA 2\n> attack with MAGIC\n"
    )
    assert error.message == "the enemy `DEMON` has no MAGIC"


@pytest.mark.parametrize(
    ("ruleset", "line", "message"),
    [
        ("d20", "> enemy Bandit AC 13 attack +3 damage 1d8", "the enemy `Bandit` has no HP"),
        ("d20", "> enemy Bandit AC 13 atack +3 HP 5", "unknown enemy stat `atack`"),
        ("reliques", "> ennemi SPECTRE FOR 3 AGL 4 CON 3", "the enemy `SPECTRE` has no PER"),
    ],
)
def test_other_fight_procedures_read_their_needs_from_the_ruleset(tmp_path, ruleset, line, message):
    (error,) = load_errors(tmp_path, head(ruleset) + f"§ 1\n> fight\n{line}\n")
    assert error.message == message


@pytest.mark.parametrize(
    ("ruleset", "line"),
    [
        ("d20", "> enemy Bandit AC 13 attack +3 damage 1d8 RD 1 HP 12"),
        ("d20", "> ennemi Bandit CA 13 attaque +3 dégâts 1d8 PV 12"),
        ("reliques", "> ennemi SQUELETTE FOR 2 AGL 2 PER 2 CON 2 arme 2 protection 1"),
        ("df-classic", "> ennemi GOBELIN HABILETÉ 7 ENDURANCE 6"),
        ("df-classic", "> enemy GOBLIN SKILL 7 STAMINA 6"),
    ],
)
def test_complete_enemies_load(tmp_path, ruleset, line):
    load_text(tmp_path, head(ruleset) + f"§ 1\n> fight\n{line}\n> win -> 2\n§ 2\n> victory\n")
