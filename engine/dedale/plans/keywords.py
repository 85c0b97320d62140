"""The plan language's keywords in English and French (matched folded: case and accents
do not matter, so ``héros``, ``Heros`` and ``HÉROS`` are one word)."""

from __future__ import annotations

from dedale.plans.model import Language
from dedale.rules import fold

# folded word -> (meaning, language); a word both languages share has language None
HEADERS: dict[str, tuple[str, Language | None]] = {
    "hero": ("hero", "en"),
    "heros": ("hero", "fr"),
    "name": ("name", "en"),
    "nom": ("name", "fr"),
    "class": ("class", "en"),
    "classe": ("class", "fr"),
    "gender": ("gender", "en"),
    "genre": ("gender", "fr"),
    "seed": ("seed", "en"),
    "graine": ("seed", "fr"),
    "otherwise": ("otherwise", "en"),
    "sinon": ("otherwise", "fr"),
}
STEPS: dict[str, tuple[str, Language | None]] = {
    "dice": ("dice", "en"),
    "des": ("dice", "fr"),
    "at": ("at", "en"),
    "au": ("at", "fr"),
    "a": ("at", "fr"),
    "choose": ("choose", "en"),
    "choisir": ("choose", "fr"),
    "answer": ("answer", "en"),
    "repondre": ("answer", "fr"),
    "eat": ("eat", "en"),
    "manger": ("eat", "fr"),
    "drop": ("drop", "en"),
    "jeter": ("drop", "fr"),
    "expect": ("expect", "en"),
    "attendu": ("expect", "fr"),
    "ending": ("ending", "en"),
    "fin": ("ending", "fr"),
    "jump": ("jump", "en"),
    "sauter": ("jump", "fr"),
    "set": ("set", "en"),
    "fixer": ("set", "fr"),
    "god": ("god", "en"),
    "invincible": ("god", "fr"),
    "stop": ("stop", None),
    "arret": ("stop", "fr"),
}
YES = {"yes": "en", "oui": "fr"}
NO = {"no": "en", "non": "fr"}
ON = {"on": "en", "yes": "en", "oui": "fr"}
OFF = {"off": "en", "no": "en", "non": "fr"}
NOT = {"not": "en", "pas": "fr", "sans": "fr"}
ENDINGS: dict[str, tuple[str, Language]] = {
    "victory": ("victory", "en"),
    "victoire": ("victory", "fr"),
    "death": ("death", "en"),
    "mort": ("death", "fr"),
}
GENDERS = {"f": "f", "m": "m", "feminin": "f", "masculin": "m", "female": "f", "male": "m"}

# how the writer spells each meaning
SPELLING: dict[Language, dict[str, str]] = {
    "en": {
        "hero": "hero:", "name": "name:", "class": "class:", "gender": "gender:",
        "seed": "seed:", "otherwise": "otherwise:", "dice": "dice:", "at": "at",
        "choose": "choose",
        "answer": "answer", "eat": "eat", "drop": "drop", "expect": "expect",
        "jump": "jump", "set": "set", "god": "god:", "on": "on", "off": "off",
        "ending": "ending:", "stop": "stop", "yes": "yes", "no": "no", "not": "not",
        "victory": "victory", "death": "death",
    },
    "fr": {
        "hero": "héros :", "name": "nom :", "class": "classe :", "gender": "genre :",
        "seed": "graine :", "otherwise": "sinon :", "dice": "dés :", "at": "au",
        "choose": "choisir",
        "answer": "répondre", "eat": "manger", "drop": "jeter", "expect": "attendu",
        "jump": "sauter", "set": "fixer", "god": "invincible :", "on": "oui", "off": "non",
        "ending": "fin :", "stop": "arrêt", "yes": "oui", "no": "non", "not": "pas",
        "victory": "victoire", "death": "mort",
    },
}  # fmt: skip


def folded(word: str) -> str:
    """The form keywords are matched in."""
    return fold(word).lower()
