"""The keywords completion offers, in both keyword languages (English, French).

Pairs of spellings the grammar accepts (tests/lsp checks each against
:data:`dedale.language.keywords.DIRECTIVE_WORDS` and ``CHOICE_OPTION_WORDS``); the book's
language comes first in the list the editor shows.
"""

from __future__ import annotations

DIRECTIVES: tuple[tuple[str, str], ...] = (
    ("go to", "rendez-vous au"), ("gain", "gagnez"), ("lose", "perdez"), ("set", "fixez"),
    ("restore", "restaurez"), ("raise", "augmentez"), ("lower", "diminuez"),
    ("take", "prenez"), ("drop", "abandonnez"), ("set codeword", "notez mot-code"),
    ("clear codeword", "effacez mot-code"), ("world", "monde"),
    ("allow revisit", "revisite permise"), ("meal allowed", "repas autorisé"),
    ("meals forbidden", "repas interdit"), ("death", "mort"), ("victory", "victoire"),
    ("if", "si"), ("otherwise", "sinon"), ("test your luck", "tentez votre chance"),
    ("test your skill", "tentez votre habileté"), ("roll", "lancez"),
    ("lucky", "chanceux"), ("unlucky", "malchanceux"), ("success", "réussite"),
    ("failure", "échec"), ("fight", "combat"), ("enemy", "ennemi"), ("win", "victoire"),
    ("lose", "défaite"), ("escape", "fuite"), ("not won after", "pas gagné après"),
    ("enemy damage", "dégâts ennemis"), ("hidden number", "nombre secret"),
    ("hidden paragraph", "paragraphe secret"), ("wrong number", "mauvais nombre"),
    ("note paragraph", "notez paragraphe"), ("go back", "revenez en arrière"),
    ("cure", "guérissez"), ("eat a meal", "mangez un repas"),
)  # fmt: skip

CHOICE_OPTIONS: tuple[tuple[str, str], ...] = (
    ("if", "si"), ("disabled", "grisé"), ("hidden", "caché"), ("pay", "payez"),
    ("give", "donnez"), ("revisit", "revisite"), ("gain", "gagnez"), ("lose", "perdez"),
    ("take", "prenez"), ("drop", "jetez"),
)  # fmt: skip

LANGUAGES = ("en", "fr")


def in_order(pairs: tuple[tuple[str, str], ...], lang: str) -> list[tuple[str, str]]:
    """``(spelling, language)`` of every keyword, the book's language first, no repeats."""
    first = LANGUAGES.index(lang) if lang in LANGUAGES else 1
    order = (first, 1 - first)
    seen: set[str] = set()
    result = []
    for side in order:
        for pair in pairs:
            word = pair[side]
            if word not in seen:
                seen.add(word)
                result.append((word, LANGUAGES[side]))
    return result
