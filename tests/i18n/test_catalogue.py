"""The gettext catalogue: compiled, complete in French, French typography, one vocabulary.

These tests fail when the committed ``.mo`` no longer matches its ``.po`` (run
``python tools/i18n/update.py``), or when a ``tr()``/``ntr()`` msgid of the code has no
French translation, so no text reaches a French reader in English.
"""

from __future__ import annotations

import gettext
import io
import re
import string
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo  # Babel is in the test extra: never skipped

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "i18n"))

import update  # noqa: E402
from dedale.i18n import message, ntr, tr  # noqa: E402
from dedale.player.texts import Texts  # noqa: E402
from typography import french_typography  # noqa: E402


def _entries(catalogue) -> dict:
    return {m.id: m for m in catalogue if m.id}


@pytest.mark.parametrize("lang", update.LANGUAGES)
def test_the_committed_mo_is_the_compiled_po(lang):
    compiled = io.BytesIO()
    write_mo(compiled, update.read(lang), use_fuzzy=False)
    compiled.seek(0)
    fresh = gettext.GNUTranslations(compiled)._catalog
    with update.mo_path(lang).open("rb") as handle:
        committed = gettext.GNUTranslations(handle)._catalog
    fresh.pop("", None), committed.pop("", None)  # the headers (they name Babel's version)
    assert committed == fresh, "stale .mo: run python tools/i18n/update.py"


def test_every_msgid_of_the_code_is_translated_in_french():
    template = update.extract()
    assert len(template) > 50, "the extraction found (almost) nothing"
    assert update.missing_french(template) == []


def test_the_po_files_are_merged_with_the_code():
    assert update.stale(update.planned()) == [], "run python tools/i18n/update.py"


def test_both_languages_have_the_same_keyed_messages():
    keyed = {
        lang: {(m.context, update._key(m.id)) for m in update.read(lang) if update.is_keyed(m)}
        for lang in ("en", "fr")
    }
    assert keyed["fr"] == keyed["en"]


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


# What dedale.i18n.french gives every fight narration for French's agreement (pronouns by
# gender and number, the ending of "vaincu{e}" and of the hero's "mort{hero_e}", "de" + a
# name): English needs none of them.
FRENCH_GRAMMAR = {"subject", "Subject", "stressed", "object", "e", "of_name", "Enemy", "hero_e"}


def test_translations_keep_the_placeholders():
    english = _entries(update.read("en"))
    wrong = []
    for msgid, entry in _entries(update.read("fr")).items():
        source = english.get(msgid) if update.is_keyed(entry) else None
        if update.is_keyed(entry) and source is None:
            continue
        sources = source.string if source is not None else msgid
        wanted = set().union(*map(_placeholders, _strings(sources)))
        for text in _strings(entry.string):
            extra = _placeholders(text) - wanted - {"count"} - FRENCH_GRAMMAR
            if extra:
                wrong.append((msgid, extra))
    assert wrong == []


def _strings(value) -> tuple[str, ...]:
    return tuple(value) if isinstance(value, list | tuple) else (value,)


def test_french_typography():
    wrong = [
        text
        for entry in update.read("fr")
        if entry.id
        for text in _strings(entry.string)
        if french_typography(text) != text
    ]
    assert wrong == []


def test_french_typography_rules():
    assert french_typography("Votre choix ?") == "Votre choix\u202f?"
    assert french_typography("Victoire !") == "Victoire\u202f!"
    assert french_typography("un ; deux") == "un\u202f; deux"
    assert french_typography("Dés : 12") == "Dés\u00a0: 12"
    assert french_typography("« Clé »") == "«\u00a0Clé\u00a0»"
    assert french_typography("HABILETÉ != 3, 12:30, http://x") == "HABILETÉ != 3, 12:30, http://x"
    assert french_typography("pas {value!r} : {x:.1%} ?") == "pas {value!r}\u00a0: {x:.1%}\u202f?"


# One word per concept in each language: the words that name it another way.
OTHER_WORDS = {
    "fr": [r"mots? de passe", r"mode dieu", r"\béquipement\b", r"\bmot code\b", r"motcode"],
    "en": [r"characteristic", r"password", r"code word", r"code-word"],
}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_one_vocabulary(lang):
    texts = [t for entry in update.read(lang) if entry.id for t in _strings(entry.string)]
    found = [t for t in texts for word in OTHER_WORDS[lang] if re.search(word, t, re.IGNORECASE)]
    assert found == []


def test_plural_forms_follow_the_count():
    assert message("fr", "event.fight_won", count=1, assaults=1) == (
        "Vous remportez le combat (1 assaut)."
    )
    assert message("fr", "event.fight_won", count=3, assaults=3) == (
        "Vous remportez le combat (3 assauts)."
    )
    assert message("en", "event.fight_won", count=1, assaults=1) == "You win the fight (1 assault)."
    assert message("en", "event.fight_won", assaults=4) == "You win the fight (4 assaults)."
    assert Texts("fr")("rules.inventory", count=1, limit=1).startswith(
        "Vous portez au plus 1 objet\u202f;"
    )
    assert Texts("en")("rules.inventory", count=8, limit=8).startswith(
        "You can carry at most 8 items"
    )


def test_sentences_translate_with_their_plural_forms():
    one = ntr(
        "the {count} random game did not reach paragraph {number}",
        "no random game out of {count} reached paragraph {number}",
        1,
        number=7,
    )
    many = ntr(
        "the {count} random game did not reach paragraph {number}",
        "no random game out of {count} reached paragraph {number}",
        40,
        number=7,
    )
    assert one == "the 1 random game did not reach paragraph 7"
    assert one.translate("fr") == "l'unique partie au hasard n'a pas atteint le paragraphe 7"
    assert many.translate("fr") == "aucune des 40 parties au hasard n'a atteint le paragraphe 7"
    nested = tr("{message} (path ... {trail})", message=tr("no selectable choice"), trail="1 -> 2")
    assert nested.translate("fr") == "aucun choix possible (chemin … 1 -> 2)"
    assert nested.translate("de") == str(nested)  # no catalogue: English


def test_the_compiled_catalogue_ships_with_the_package():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["dedale.i18n"]
    folder = ROOT / "engine" / "dedale" / "i18n"
    shipped = {path for pattern in patterns for path in folder.glob(pattern)}
    assert {update.mo_path(lang) for lang in update.LANGUAGES} <= shipped
    assert not list(folder.glob("*.yaml")), "the YAML catalogues are replaced by the .po files"
