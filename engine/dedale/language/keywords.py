"""Keyword folding and vocabularies of the book language (both keyword languages).

Keywords are matched after ``fold()``: accents are removed one character for one (so
positions in the folded text are positions in the original), typographic apostrophes and
non-breaking spaces become plain. Lark's patterns are case-insensitive.
"""

from __future__ import annotations

import unicodedata

from dedale.i18n import tr


def _build_fold_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0xC0, 0x250):
        char = chr(code)
        base = unicodedata.normalize("NFD", char)[0]
        if base != char and len(base) == 1 and base.isascii():
            table[code] = base
    table.update(
        {
            ord("\u2019"): "'",  # ’
            ord("\u2018"): "'",  # ‘
            ord("\u02bc"): "'",  # ʼ
            ord("\u00a0"): " ",  # no-break space (French typography before ':')
            ord("\u202f"): " ",  # narrow no-break space
            ord("\u2009"): " ",  # thin space
            ord("\t"): " ",
            ord("\u2212"): "-",  # − minus sign ("−1 if Dagger", from a word processor)
        }
    )
    return table


FOLD_TABLE = _build_fold_table()


def fold(text: str) -> str:
    """Fold accents and typographic characters, keeping the text's length."""
    return text.translate(FOLD_TABLE)


def name_key(name: str) -> str:
    """A comparison key for names: accent-, case- and spacing-insensitive."""
    return "-".join(fold(name).casefold().replace("'", " ").split())


# Canonical test outcomes, by folded lower-case spelling.
OUTCOMES: dict[str, str] = {
    "lucky": "success",
    "chanceux": "success",
    "success": "success",
    "succes": "success",
    "reussite": "success",
    "unlucky": "failure",
    "malchanceux": "failure",
    "failure": "failure",
    "echec": "failure",
    "critical success": "critical_success",
    "reussite critique": "critical_success",
    "succes critique": "critical_success",
    "critical failure": "critical_failure",
    "echec critique": "critical_failure",
    # an optional test the reader declines; two rolls compared (the first against the second)
    "declined": "declined",
    "refused": "declined",
    "refus": "declined",
    "refuse": "declined",
    "higher": "higher",
    "superieur": "higher",
    "lower": "lower",
    "inferieur": "lower",
    "equal": "equal",
    "egal": "equal",
    "egalite": "equal",
}

# Several-enemy fight modes.
MODES: dict[str, str] = {
    "one after another": "sequence",
    "one at a time": "sequence",
    "l'un apres l'autre": "sequence",
    "les uns apres les autres": "sequence",
    "all at once": "together",
    "together": "together",
    "ensemble": "together",
    "tous a la fois": "together",
    "en meme temps": "together",
    "as one": "as_one",
    "comme un seul": "as_one",
}

# "test your <word>": the ruleset's test names for the two classic tests.
NAMED_TESTS: dict[str, str] = {
    "luck": "luck",
    "chance": "luck",
    "skill": "skill",
    "habilete": "skill",
}

# Every spelling that may start a directive line (after `>`), for "did you mean" hints.
DIRECTIVE_WORDS: tuple[str, ...] = (
    "go to", "turn to", "allez au", "rendez-vous au",
    "gain", "add", "gagnez", "ajoutez", "lose", "remove", "perdez", "retirez",
    "set", "fixez", "restore", "restaurez", "raise", "augmentez",
    "lower", "diminuez",
    "take", "prenez", "drop", "abandonnez",
    "set codeword", "notez mot-code", "clear codeword", "effacez mot-code",
    "world", "monde", "allow revisit", "revisite permise",
    "meal allowed", "meals forbidden", "repas autorisé", "repas interdit",
    "death", "mort", "victory", "victoire", "if", "si", "otherwise", "sinon",
    "test your luck", "tentez votre chance", "test your skill", "tentez votre habileté",
    "test", "testez", "check", "action", "roll", "lancez",
    "lucky", "chanceux", "unlucky", "malchanceux", "success", "réussite", "failure", "échec",
    "critical success", "réussite critique", "critical failure", "échec critique",
    "fight", "combat", "enemy", "ennemi", "win", "lose", "défaite",
    "escape", "fuite", "not won after", "pas gagné après", "attack", "attaque",
    "enemy damage", "dégâts ennemis",
    "hidden number", "nombre secret", "hidden paragraph", "paragraphe secret",
    "wrong number", "mauvais nombre",
    "note paragraph", "notez paragraphe", "go back", "revenez en arrière",
    "status", "état", "cure", "guérissez", "eat a meal", "mangez un repas",
)  # fmt: skip

# The French spellings of the keywords, for the "expected ..." list of a French book's syntax
# error: a terminal shows the first of these it matches (else its English spelling).
FRENCH_WORDS: tuple[str, ...] = (
    "allez au", "rendez-vous au", "gagnez", "ajoutez", "perdez", "retirez", "fixez",
    "restaurez", "augmentez", "diminuez", "prenez", "abandonnez", "jetez", "notez mot-code",
    "effacez mot-code", "notez", "effacez", "monde", "revisite permise", "revisite",
    "repas autorisé", "repas interdit", "mort", "victoire", "défaite", "si", "sinon", "et",
    "ou", "pas", "objet", "mot-code", "visité", "tentez votre", "testez", "action", "lancez",
    "chanceux", "malchanceux", "réussite", "échec", "critique", "marge", "combat", "ennemi",
    "ennemis", "allié", "fuite", "après", "pas gagné après", "assauts", "attaque",
    "dégâts ennemis", "nombre secret", "paragraphe secret", "mauvais nombre",
    "notez paragraphe", "revenez en arrière", "état", "guérissez", "mangez un repas",
    "grisé", "caché", "payez", "donnez", "quand", "votre", "tombe à", "ou moins", "chacun",
    "contre lui", "il inflige", "il subit", "la moitié", "tout", "fin du combat quand",
    "premier assaut gagné", "blessure", "son", "à", "de", "pour", "sur", "jusqu'à",
    "vous pouvez prendre", "achetez", "vendez", "pariez", "misez", "gagnant sur",
    "arme", "nombre", "exceptionnel", "initiale", "maîtrisé", "avantage", "désavantage",
    "risque", "physique", "mental", "mentale",
)  # fmt: skip

# Words that may follow `(` in a choice.
CHOICE_OPTION_WORDS: tuple[str, ...] = (
    "if", "si", "disabled", "grisé", "hidden", "caché", "pay", "payez", "give", "donnez",
    "revisit", "revisite",
    "gain", "gagnez", "lose", "perdez", "set", "fixez", "restore", "restaurez", "take",
    "prenez", "drop", "jetez", "clear", "effacez", "notez", "cure", "guérissez",
)  # fmt: skip

# Human names of the grammar's terminals, for "expected ..." messages.
TERMINAL_NAMES: dict[str, str] = {
    "INT": tr("a number"),
    "SIGNED_INT": tr("a signed number such as `+1` or `-2`"),
    "DICE": tr("dice such as `1d6`"),
    "WORD": tr("a name"),
    "NAME": tr("a name"),
    "ITEM_TEXT": tr("an item name"),
    "ENEMY_NAME": tr("an enemy name followed by its stats (`GOBLIN SKILL 7 STAMINA 6`)"),
    "LABEL_TEXT": tr("a label"),
    "CHOICE_TEXT": tr("the choice's text"),
    "ARROW": tr("`->`"),
    "_NL": tr("the end of the line"),
    "$END": tr("the end of the line"),
    "LPAR": tr("`(`"),
    "RPAR": tr("`)`"),
    "COMMA": tr("`,`"),
    "COLON": tr("`:`"),
    "PLUS": tr("`+`"),
    "MINUS": tr("`-`"),
    "CMP": tr("a comparison (`>=`, `<`, `=`...)"),
    "ADDOP": tr("`+` or `-`"),
    "IF": tr("`if`/`si`"),
    "OUTCOME": tr("an outcome (`success`/`réussite`, `failure`/`échec`...)"),
    "MODE": tr("a fight mode"),
    "INITIAL": tr("`initial`/`initiale`"),
    "YOUR": tr("`your`/`votre`"),
    "IMMUNE": tr("`immune`/`immunisé`"),
    "_TO": tr("`to`/`à`"),
    "_BY": tr("`by`/`de`"),
    "_CODEWORD": tr("`codeword`/`mot-code`"),
    "_VISITED": tr("`visited`/`visité`"),
    "_AFTER": tr("`after`/`après`"),
}
