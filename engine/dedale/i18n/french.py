"""The small grammar the narration needs, written once: articles, elision, lists, agreement.

French is the language with rules here (English only joins lists and puts "the"):

- :func:`elides`: whether a word takes "l'" / "d'" (a vowel or a mute h);
- :func:`with_article`: ``("la", "Goule")`` -> ``la Goule``, ``("le", "Ogre")`` -> ``l'Ogre``;
- :func:`of`: "de" before a noun phrase: ``Test d'action``, ``du Gobelin``, ``des rats``;
- :func:`join`: ``le rat, le chien et le loup`` / ``the rat, the dog and the wolf``;
- :class:`Foes`: the enemies a sentence speaks of, with their number and gender, so that a
  template can agree (``{foe} vous blesse`` / ``{foe} vous blessent``; ``vaincu{e}``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# Words in "h" that do not elide (h aspiré): the few a gamebook's bestiary meets.
ASPIRATED_H = frozenset(
    """hache haches harpie harpies heros hibou hiboux horde hordes hyene hyenes hobgobelin
    hobgobelins homard hussard hutte hallebardier hallebardiers herisson harfang hors-la-loi
    hurleur hurleurs huron haut haute hauts hautes hideux hideuse hurlant""".split()
)
ARTICLES = {"le", "la", "les", "l'", "the"}
ELIDED = "l'"
_VOWELS = "aeiouy"
_APOSTROPHES = "'\u2019"


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def elides(word: str) -> bool:
    """Whether a French article or "de" before ``word`` elides (``l'Ogre``, ``d'action``)."""
    first = re.split(r"[\s]+", word.strip(), maxsplit=1)[0] if word.strip() else ""
    folded = _fold(first)
    if not folded:
        return False
    if folded[0] in _VOWELS:
        return True
    return folded[0] == "h" and folded.strip(_APOSTROPHES) not in ASPIRATED_H


def normalise_article(article: str | None) -> str | None:
    """An article as an author writes it (``Le``, ``L’``, ``THE``) -> ``le`` / ``l'`` / ``the``."""
    if not article:
        return None
    word = article.strip().lower().replace("\u2019", "'")
    return word if word in ARTICLES else None


_LEADING_ARTICLE = re.compile(r"(?i)(le|la|les|the)[ \t]+(?=\S)|(l['\u2019])(?=\w)")


def split_article(name: str) -> tuple[str | None, str]:
    """An enemy's name as written -> (its article, the name): ``le GOBELIN`` ->
    ``("le", "GOBELIN")``, ``l'OGRE`` -> ``("l'", "OGRE")``, ``CORVIN`` -> ``(None, "CORVIN")``."""
    found = _LEADING_ARTICLE.match(name)
    if found is None or not name[found.end() :].strip():
        return None, name
    return normalise_article(found.group(1) or found.group(2)), name[found.end() :].strip()


def with_article(article: str | None, noun: str) -> str:
    """``noun`` after its article, elided when French asks it (``le`` + ``Ogre`` -> ``l'Ogre``).

    No article: the noun alone (a proper name: ``Corvin``).
    """
    article = normalise_article(article)
    if article is None:
        return noun
    if article in ("le", "la", "l'"):
        if elides(noun):
            return f"l'{noun}"
        return f"{'le' if article == ELIDED else article} {noun}"
    return f"{article} {noun}"


def of(phrase: str) -> str:
    """French "de" before a noun phrase: ``d'action``, ``de Chance``, ``du Gobelin``,
    ``de la Goule``, ``de l'Ogre``, ``des rats``."""
    lowered = phrase.lower()
    if lowered.startswith("le "):
        return "du " + phrase[3:]
    if lowered.startswith("les "):
        return "des " + phrase[4:]
    if lowered.startswith(("la ", "l'", "l\u2019")):
        return "de " + phrase
    return f"d'{phrase}" if elides(phrase) else f"de {phrase}"


def capitalise(text: str) -> str:
    """The first letter in upper case (the start of a sentence): ``le Gobelin`` -> ``Le …``."""
    return text[:1].upper() + text[1:]


def join(items: Iterable[str], lang: str) -> str:
    """``a, b et c`` (French) / ``a, b and c`` (English); one item: itself."""
    words = list(items)
    if len(words) <= 1:
        return "".join(words)
    conjunction = " et " if lang == "fr" else " and "
    return ", ".join(words[:-1]) + conjunction + words[-1]


@dataclass(frozen=True, slots=True)
class Foes:
    """The enemies a sentence names: ``phrase`` (articles and list joining done), how many
    they are and whether they are all feminine (for ``vaincue`` / ``vaincues``)."""

    phrase: str
    count: int
    feminine: bool
    parts: tuple[str, ...] = ()  # the listed noun phrases (``le Rat gris``, ``le Rat borgne``)

    def of(self) -> str:
        """French "de" before each listed name: ``du Rat gris et du Rat borgne``."""
        return join((of(part) for part in self.parts), "fr") if self.parts else of(self.phrase)

    @property
    def plural(self) -> bool:
        return self.count > 1

    def agreement(self) -> str:
        """The ending a French adjective or past participle takes: "", "e", "s" or "es"."""
        return ("e" if self.feminine else "") + ("s" if self.plural else "")

    def params(self) -> dict[str, object]:
        """The placeholders a narration template may use: ``{enemy}`` (``{Enemy}`` at a
        sentence's start), the French pronouns ``{subject}`` (il/elle/ils/elles, ``{Subject}``),
        ``{stressed}`` (lui/elle/eux/elles), ``{object}`` (le/la/les), the ending ``{e}``
        and ``count`` (which chooses the plural form)."""
        index = (1 if self.feminine else 0) + (2 if self.plural else 0)
        subject = ("il", "elle", "ils", "elles")[index]
        return {
            "enemy": self.phrase,
            "Enemy": capitalise(self.phrase),
            "subject": subject,
            "Subject": capitalise(subject),
            "stressed": ("lui", "elle", "eux", "elles")[index],
            "object": ("le", "la", "les", "les")[index],
            "e": self.agreement(),
            "count": self.count,
        }


GROUP_SEPARATOR = " & "  # how the fight procedures name several enemies fighting as one

_CARDINALS = {
    "en": "zero one two three four five six seven eight nine ten eleven twelve".split(),
    "fr": "zéro un deux trois quatre cinq six sept huit neuf dix onze douze".split(),
}
_ORDINALS = {
    "en": "first second third fourth fifth sixth seventh eighth ninth tenth eleventh "
    "twelfth".split(),
    "fr": "premier deuxième troisième quatrième cinquième sixième septième huitième "
    "neuvième dixième onzième douzième".split(),
}
NUMBER_WORDS: dict[str, int] = {
    _fold(word): number
    for words in _CARDINALS.values()
    for number, word in enumerate(words)
    if number
} | {"une": 1}
"""A group's number as a word (folded): ``three`` / ``trois`` -> 3."""


def cardinal(number: int, lang: str) -> str:
    """``3`` -> ``three`` / ``trois`` (digits past twelve)."""
    words = _CARDINALS["fr" if lang == "fr" else "en"]
    return words[number] if 0 < number < len(words) else str(number)


def ordinal(number: int, lang: str, feminine: bool = False) -> str:
    """``1`` -> ``first`` / ``premier`` (``première``), ``13`` -> ``13th`` / ``13e``."""
    french = lang == "fr"
    words = _ORDINALS["fr" if french else "en"]
    if 0 < number <= len(words):
        word = words[number - 1]
        return "première" if french and feminine and number == 1 else word
    if french:
        return f"{number}e"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10 if number % 100 // 10 != 1 else 0)
    return f"{number}{suffix or 'th'}"


@dataclass(frozen=True, slots=True)
class Member:
    """One enemy of a group written once (``> enemies the three RATS … each``): the group's
    names, its size and gender, and this enemy's place in it (see dedale.language.groups)."""

    group: str  # what tells the group apart (its line)
    plural: str
    singular: str
    count: int
    index: int
    feminine: bool = False


class Naming(dict):
    """What the narration knows of a book's enemies: name -> article (a dict), and in
    :attr:`groups` the enemies that belong to a group (name -> :class:`Member`)."""

    def __init__(self, articles: Mapping[str, str] | None = None, groups=None) -> None:
        super().__init__(articles or {})
        self.groups: dict[str, Member] = dict(groups or {})

    def __bool__(self) -> bool:
        return bool(len(self) or self.groups)


def _members(names: list[str], articles: Mapping[str, str]) -> list[Member | None]:
    groups: Mapping[str, Member] = getattr(articles, "groups", None) or {}
    return [groups.get(name) for name in names]


def _whole_group(members: list[Member | None]) -> Member | None:
    """The group when ``members`` are all the enemies of one group, else None."""
    first = members[0]
    if first is None or len(members) != first.count or len(members) < 2:
        return None
    if any(m is None or m.group != first.group for m in members):
        return None
    return first


def member_phrase(member: Member, lang: str) -> str:
    """``the first RAT`` / ``le premier RAT`` / ``la première GOULE``."""
    word = ordinal(member.index, lang, member.feminine)
    if lang != "fr":
        return f"the {word} {member.singular}"
    return f"{'la' if member.feminine else 'le'} {word} {member.singular}"


def group_phrase(member: Member, lang: str) -> str:
    """The whole group: ``the three RATS`` / ``les trois RATS``."""
    article = "les" if lang == "fr" else "the"
    return f"{article} {cardinal(member.count, lang)} {member.plural}"


def panel_name(shown: str, articles: Mapping[str, str], lang: str) -> str:
    """An enemy's name as a panel or a list shows it: one name as written (``GHOUL``), a
    group's enemy by its place (``First RAT`` / ``Premier RAT``), several names as a real
    list with their articles (``The Goblin and the Orc`` / ``Le Gobelin et l'Orque``)."""
    names = [name for name in shown.split(GROUP_SEPARATOR) if name] or [shown]
    member = _members(names, articles)[0]
    if len(names) == 1:
        if member is None:
            return shown
        return capitalise(ordinal(member.index, lang, member.feminine)) + " " + member.singular
    return capitalise(foes(shown, articles, lang).phrase)


def foes(shown: str, articles: Mapping[str, str], lang: str) -> Foes:
    """The :class:`Foes` of an event's enemy name (``Rat gris & Rat borgne``: a group),
    with the articles the book gives its enemies (name -> article; a :class:`Naming` also
    knows the groups written once: ``the three RATS``, ``the first RAT``)."""
    names = [name for name in shown.split(GROUP_SEPARATOR) if name] or [shown]
    members = _members(names, articles)
    whole = _whole_group(members)
    if whole is not None:
        return Foes(group_phrase(whole, lang), whole.count, whole.feminine)
    if any(m is not None for m in members):
        phrases = [
            member_phrase(m, lang) if m else foes(n, articles, lang).phrase
            for n, m in zip(names, members, strict=True)
        ]
        feminine = all(m is not None and m.feminine for m in members)
        return Foes(join(phrases, lang), len(names), feminine, tuple(phrases))
    given = [normalise_article(articles.get(name)) for name in names]
    if lang != "fr":
        given = [a if a == "the" else None for a in given]
    else:
        given = [None if a == "the" else a for a in given]
    parts = tuple(with_article(a, n) for a, n in zip(given, names, strict=True))
    count = sum(2 if a == "les" else 1 for a in given)
    feminine = all(a == "la" for a in given)
    return Foes(join(parts, lang), count, feminine, parts)


NBSP = "\u00a0"  # before ":" and inside « »
NNBSP = "\u202f"  # narrow, before ";", "!" and "?"
_BEFORE_PUNCTUATION = re.compile(r"[ \t]+([:;!?])(?=\s|$|[»)\]*_\"'!?.])", re.MULTILINE)
_AFTER_OPENING = re.compile(r"«[ \t]*(?=\S)")
_BEFORE_CLOSING = re.compile(r"(?<=\S)[ \t]*»")


def typography(text: str) -> str:
    """French typography at render time: the ordinary space an author types before
    ``: ; ! ?`` becomes non-breaking (narrow before ``; ! ?``), and « » hold their text with
    non-breaking spaces, so that no line starts with ":" and no « ends a line. Apostrophes,
    dashes and everything else stay as written; a colon with no space before it (``10:30``,
    a URL) is left alone."""

    def before(match: re.Match[str]) -> str:
        mark = match.group(1)
        return (NBSP if mark == ":" else NNBSP) + mark

    text = _BEFORE_PUNCTUATION.sub(before, text)
    text = _AFTER_OPENING.sub("«" + NBSP, text)
    return _BEFORE_CLOSING.sub(NBSP + "»", text)


NAMED = ("enemy", "ally", "first")  # the parameters of a message that name a fighter


def named(params: Mapping[str, object], articles: Mapping[str, str], lang: str) -> dict:
    """A message's parameters with the fighters they name given their article (``enemy``:
    ``le GOBELIN``), and each also capitalised for a sentence's start (``Enemy``)."""
    shown = dict(params)
    for key in NAMED:
        value = shown.get(key)
        if isinstance(value, str) and value:
            phrase = foes(value, articles, lang).phrase
            shown[key] = phrase
            shown[key[:1].upper() + key[1:]] = capitalise(phrase)
    return shown
