"""The keys of book.yaml in English and French, and the hints for a value of the wrong type
that point at the key the author probably meant (``règles: df-classic`` ->
``jeu-de-règles: df-classic``).

Keys are compared folded (no accents, any case) with ``_`` and spaces read as ``-``, so
``jeu-de-règles``, ``Jeu de règles`` and ``jeu_de_regles`` are one key.
"""

from __future__ import annotations

import difflib
from typing import Any

from dedale.i18n import Message, tr
from dedale.language.keywords import fold

# canonical key -> (French name as documented, other accepted spellings)
TOP_KEYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "title": ("titre", ()),
    "author": ("auteur", ("auteurs", "authors")),
    "language": ("langue", ("lang",)),
    "ruleset": ("jeu-de-règles", ("regles-du-jeu", "systeme-de-regles", "systeme")),
    "rules": ("règles", ("regles-modifiees",)),
    "start": ("départ", ("debut", "paragraphe-de-depart")),
    "files": ("fichiers", ()),
    "items": ("objets", ("equipement",)),
    "creation": ("création", ("personnage",)),
    "validator": ("validateur", ("validation",)),
    "state": ("état", ("etats", "etat-du-heros")),
    "pinned": ("fixés", ("epingles", "numeros-fixes", "paragraphes-fixes")),
}
CREATION_KEYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "fixed_stats": ("caractéristiques-fixes", ("stats-fixes", "caracteristiques-choisies")),
    "reroll": ("relance", ("relances", "relancer")),
    "default_name": ("nom-par-défaut", ("nom",)),
    "gender": ("genre", ("sexe",)),
}
VALIDATOR_KEYS: dict[str, tuple[str, tuple[str, ...]]] = {
    "ignore": ("ignorer", ()),
    "fight_threshold": ("seuil-de-combat", ("seuil-combat",)),
    "runs": ("parties", ()),
    "max_steps": ("étapes-max", ("etapes-maximum", "pas-max")),
    "hidden": ("cachés", ("paragraphes-caches",)),
    "time_budget": ("temps-max", ("budget-de-temps", "duree-max")),
}

# French and English values an author may write for some settings.
LANGUAGE_VALUES = {
    "fr": "fr", "francais": "fr", "french": "fr", "fr-fr": "fr",
    "en": "en", "anglais": "en", "english": "en", "en-gb": "en", "en-us": "en",
}  # fmt: skip
REROLL_VALUES = {
    "never": "never", "jamais": "never", "non": "never", "aucune": "never",
    "once": "once", "une-fois": "once", "une": "once", "1": "once",
    "unlimited": "unlimited", "illimite": "unlimited", "illimitee": "unlimited",
    "illimitees": "unlimited", "toujours": "unlimited", "always": "unlimited",
}  # fmt: skip
GENDER_VALUES = {
    "f": "f", "feminin": "f", "feminine": "f", "female": "f", "femme": "f", "elle": "f",
    "she": "f", "m": "m", "masculin": "m", "masculine": "m", "male": "m", "homme": "m",
    "il": "m", "he": "m",
}  # fmt: skip
BOOL_VALUES = {"oui": True, "vrai": True, "yes": True, "non": False, "faux": False, "no": False}


def norm(key: Any) -> str:
    """A key as compared: folded, lower case, ``-`` for ``_`` and spaces."""
    return "-".join(fold(str(key)).lower().replace("_", " ").split())


class KeySet:
    """One mapping's keys (book.yaml's top level, ``creation:``, ``validator:``)."""

    def __init__(self, keys: dict[str, tuple[str, tuple[str, ...]]]):
        self.keys = keys
        self.english: dict[str, str] = {}
        self.french: dict[str, str] = {}
        for canonical, (french, others) in keys.items():
            self.english[norm(canonical)] = canonical
            for name in (french, *others):
                self.french.setdefault(norm(name), canonical)

    def canonical(self, key: Any) -> str | None:
        """The English key ``key`` stands for, or None when unknown."""
        written = norm(key)
        return self.english.get(written) or self.french.get(written)

    def is_french(self, key: Any) -> bool:
        written = norm(key)
        return written in self.french and written not in self.english

    def spell(self, canonical: str, french: bool) -> str:
        """The key as documented in the author's language."""
        return self.keys[canonical][0] if french else canonical

    def suggest(self, key: Any, french: bool) -> Message:
        """``did you mean `titre`?``, else the list of keys in the author's language."""
        written = norm(key)
        best: tuple[float, bool, str] | None = None
        for canonical, (french_name, _others) in self.keys.items():
            for name, in_french in ((canonical, False), (french_name, True)):
                score = difflib.SequenceMatcher(None, written, norm(name)).ratio()
                candidate = (score, in_french == french, name)  # ties: the author's language
                if score >= 0.6 and (best is None or candidate[:2] > best[:2]):
                    best = candidate
        if best is not None:
            return tr("did you mean `{name}`?", name=best[2])
        names = ", ".join(self.spell(c, french) for c in self.keys)
        return tr("known keys: {names}", names=names)


TOP = KeySet(TOP_KEYS)
CREATION = KeySet(CREATION_KEYS)
VALIDATOR = KeySet(VALIDATOR_KEYS)


def wrong_type_hint(canonical: str, written: str, value: Any, french: bool) -> Message | None:
    """Where a value of the wrong type probably belongs (the key the author meant)."""
    shown = str(value).strip() if isinstance(value, str | int | float) else None
    if canonical == "rules" and shown:
        return tr(
            "`{key}` overrides ruleset values; to choose the ruleset, write `{other}: {value}`",
            key=written,
            other=TOP.spell("ruleset", french),
            value=shown,
        )
    if canonical == "ruleset" and shown is None:
        return tr(
            "`{key}` names the ruleset (`{key}: df-classic`); to override its values, put them "
            "under `{other}:`",
            key=written,
            other=TOP.spell("rules", french),
        )
    if canonical == "items" and shown:
        return tr("write a list: `{key}: [{value}]`", key=written, value=shown)
    if canonical in ("creation", "validator"):
        keys = CREATION if canonical == "creation" else VALIDATOR
        example = next(iter(keys.keys))
        return tr(
            "`{key}` is a group of settings, one per line below it: {names}",
            key=written,
            names=", ".join(f"`{keys.spell(c, french)}`" for c in keys.keys) or example,
        )
    return None
