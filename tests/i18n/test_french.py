"""The French grammar of the narration (dedale.i18n.french): articles, elision, "de",
lists, agreement and render-time typography."""

from __future__ import annotations

import pytest
from dedale.i18n import french


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("le GOBELIN", ("le", "GOBELIN")),
        ("La Goule", ("la", "Goule")),
        ("l'OGRE", ("l'", "OGRE")),
        ("L\u2019Araignée", ("l'", "Araignée")),
        ("les trois rats", ("les", "trois rats")),
        ("the GOBLIN", ("the", "GOBLIN")),
        ("CORVIN", (None, "CORVIN")),
        ("Morvenne la Tisseuse", (None, "Morvenne la Tisseuse")),
        ("Le", (None, "Le")),  # an article alone is a name
        ("Lézard", (None, "Lézard")),
    ],
)
def test_split_article(written, expected):
    assert french.split_article(written) == expected


@pytest.mark.parametrize(
    ("article", "noun", "expected"),
    [
        ("le", "Ogre", "l'Ogre"),
        ("la", "Araignée", "l'Araignée"),
        ("le", "Homme-lézard", "l'Homme-lézard"),  # mute h
        ("le", "Hobgobelin", "le Hobgobelin"),  # aspirated h
        ("la", "Harpie", "la Harpie"),
        ("l'", "Gobelin", "le Gobelin"),  # an elided article before a consonant
        ("les", "Rats", "les Rats"),
        (None, "Corvin", "Corvin"),
        ("the", "GOBLIN", "the GOBLIN"),
    ],
)
def test_with_article(article, noun, expected):
    assert french.with_article(article, noun) == expected


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("action", "d'action"),
        ("HABILETÉ", "d'HABILETÉ"),
        ("Chance", "de Chance"),
        ("le Gobelin", "du Gobelin"),
        ("la Goule", "de la Goule"),
        ("l'Ogre", "de l'Ogre"),
        ("les rats", "des rats"),
    ],
)
def test_of(phrase, expected):
    assert french.of(phrase) == expected


def test_join():
    assert french.join(["le rat", "le chien", "le loup"], "fr") == "le rat, le chien et le loup"
    assert french.join(["the rat", "the dog"], "en") == "the rat and the dog"
    assert french.join(["Orc"], "en") == "Orc"


def test_a_group_is_plural_and_agrees():
    articles = {"Rat gris": "le", "Rat borgne": "le", "Rate pelée": "la"}
    group = french.foes("Rat gris & Rat borgne & Rate pelée", articles, "fr")
    assert group.phrase == "le Rat gris, le Rat borgne et la Rate pelée"
    assert (group.count, group.feminine, group.agreement()) == (3, False, "s")
    params = group.params()
    assert (params["Enemy"], params["subject"], params["stressed"], params["object"]) == (
        "Le Rat gris, le Rat borgne et la Rate pelée", "ils", "eux", "les",
    )  # fmt: skip


def test_a_feminine_enemy():
    params = french.foes("Goule", {"Goule": "la"}, "fr").params()
    assert (params["enemy"], params["Subject"], params["stressed"], params["e"]) == (
        "la Goule", "Elle", "elle", "e",
    )  # fmt: skip


def test_articles_follow_the_language():
    # an English article is not said in French, a French one not in English
    assert french.foes("GOBLIN", {"GOBLIN": "the"}, "fr").phrase == "GOBLIN"
    assert french.foes("GOBELIN", {"GOBELIN": "le"}, "en").phrase == "GOBELIN"
    assert french.foes("GOBLIN", {"GOBLIN": "the"}, "en").phrase == "the GOBLIN"
    assert french.foes("Orc", {}, "en").phrase == "Orc"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "« Halte ! » crie-t-il : non ; jamais ?",
            "«\u00a0Halte\u202f!\u00a0» crie-t-il\u00a0: non\u202f; jamais\u202f?",
        ),
        ("«Oui», dit-il", "«\u00a0Oui\u00a0», dit-il"),
        ("Rendez-vous à 10:30, http://example.org", "Rendez-vous à 10:30, http://example.org"),
        ("l'épée — brisée", "l'épée — brisée"),  # apostrophes and dashes as written
        ("Vraiment ?!", "Vraiment\u202f?!"),
        ("Liste :\n- un", "Liste\u00a0:\n- un"),
    ],
)
def test_typography(text, expected):
    assert french.typography(text) == expected


def test_typography_is_idempotent():
    once = french.typography("« Halte ! » : stop ?")
    assert french.typography(once) == once


def test_the_fighters_a_message_names_get_their_article():
    params = french.named(
        {"ally": "OURS", "enemy": "GOULE", "ally_strength": 12}, {"OURS": "l'", "GOULE": "la"}, "fr"
    )
    assert (params["Ally"], params["ally"], params["enemy"], params["ally_strength"]) == (
        "L'OURS", "l'OURS", "la GOULE", 12,
    )  # fmt: skip
