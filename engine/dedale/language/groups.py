"""A group of like enemies written once with a plural name (issue 16.5):
``> enemies the three RATS SKILL 5 STAMINA 4 each`` /
``> ennemis les trois RATS HABILETÉ 5 ENDURANCE 4 chacun``.

The line gives ``count`` enemies with the same values, each named by the singular and its
number (``RAT 1``, ``RAT 2``…) so that the fight, the sheet and the saves tell them apart;
the narration names them as a book does ("the first RAT", "les trois RATS") from the
:class:`~dedale.ast.EnemyGroup` each carries (see :mod:`dedale.i18n.french`).
"""

from __future__ import annotations

import re
from dataclasses import replace

from dedale import ast
from dedale.errors import BookSyntaxError
from dedale.i18n import tr
from dedale.i18n.french import NUMBER_WORDS, split_article
from dedale.language.keywords import fold
from dedale.limits import NumberUse
from dedale.limits import number as _number
from dedale.span import Span

GROUP_SIZE = NumberUse(tr("the number of enemies in a group"), 2, 20)
_FEMININE_EACH = "chacune"


def singular_of(plural: str) -> str:
    """The singular an author did not write: the last letter ``s`` or ``x`` of each word
    dropped (``RATS`` -> ``RAT``, ``GRIS`` kept when the word is too short to tell)."""
    words = []
    for word in plural.split():
        if len(word) > 3 and word[-1].lower() in "sx":
            word = word[:-1]
        words.append(word)
    return " ".join(words)


def _count(first: str, span: Span) -> int | None:
    """The group's number from its first word (``3``, ``three``, ``trois``), else None."""
    if first.isdigit():
        return _number(first, GROUP_SIZE, span)
    return NUMBER_WORDS.get(fold(first).lower())


def group_members(body: ast.Enemy, each: str | None) -> tuple[ast.Enemy, ...]:
    """The enemies a group line stands for (``body``: the line's name and values as one
    enemy; ``each``: the word ``each`` / ``chacun`` / ``chacune`` as written, if any)."""
    article, rest = body.article, body.name
    if article is None:
        article, rest = split_article(rest)
    words = rest.split()
    count = _count(words[0], body.span) if words else None
    if count is None or len(words) < 2:
        raise BookSyntaxError(
            tr("a group of enemies needs its number: `{name}`", name=body.name),
            body.span,
            hint=tr(
                "write the number before the plural name: `> enemies the three RATS SKILL 5 "
                "STAMINA 4 each` / `> ennemis les trois RATS HABILETÉ 5 ENDURANCE 4 chacun`"
            ),
        )
    if not GROUP_SIZE.low <= count <= GROUP_SIZE.high:
        _number(str(count), GROUP_SIZE, body.span)  # raises, with the range in its hint
    named = " ".join(words[1:])
    plural, _slash, singular = (part.strip() for part in named.partition("/"))
    singular = singular or singular_of(plural)
    if not plural or not singular or re.search(r"\d", singular):
        raise BookSyntaxError(
            tr("a group of enemies needs a plural name: `{name}`", name=body.name),
            body.span,
            hint=tr("write it like `the three WOLVES / WOLF` (the singular after `/`)"),
        )
    feminine = each is not None and fold(each).lower() == _FEMININE_EACH
    group = ast.EnemyGroup(
        span=body.span, plural=plural, singular=singular, count=count, feminine=feminine
    )
    return tuple(
        replace(body, name=f"{singular} {index}", article=None, group=group, member=index)
        for index in range(1, count + 1)
    )
