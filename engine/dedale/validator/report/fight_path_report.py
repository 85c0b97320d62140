"""The path of fights in the reports: one text line per book, and the JSON object
``fight_path`` (docs/validator.md, "The path of fights")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dedale.i18n import ntr, tr, translate
from dedale.validator.fight_path import FightPath, HeroPath, shown_path
from dedale.validator.report.language import percent

if TYPE_CHECKING:
    from rich.text import Text

_LEVELS = {"weakest": tr("weak"), "median": tr("median"), "strongest": tr("strong")}


def _figure(hero: HeroPath, lang: str | None) -> str:
    return ("" if hero.exact else "≈ ") + percent(hero.win, lang)


def _shown(hero: HeroPath):
    """The hero's path, with his class when the ruleset has classes (each class takes only
    the ways its kit opens: validator.class_reach)."""
    if hero.class_name is None:
        return shown_path(hero)
    return tr("{path} ({hero})", path=shown_path(hero), hero=hero.class_name)


def potion_counted(hero: HeroPath, items: str):
    """Where the chain counted the book's potion on ``hero``'s path: between the fights
    always; inside a fight only when its step is exact (a ``≈`` fight carries the doses
    through it unused, and they act once it is over)."""
    inexact = [step.paragraph for step in hero.fights if not step.exact]
    if not inexact:
        return tr("potion counted, in the fights and between them: {items}", items=items)
    if len(inexact) == len(hero.fights):
        return tr("potion counted between the fights only: {items}", items=items)
    return tr(
        "potion counted between the fights, and in them except at {paragraphs}: {items}",
        paragraphs=", ".join(f"§ {number}" for number in inexact),
        items=items,
    )


def fight_path_text(path: FightPath, lang: str | None = None) -> Text:
    """``Path of fights to § 400: weak 12%, median 61%, strong 94%; 7 fights; lowest
    step § 212 (CAVE TROLL, median 71%)``, and why a figure is ``≈``."""
    from rich.text import Text  # the text report only (the JSON one needs no Rich)

    if not path.heroes:  # a ruleset with no path of fights yet: say so (fight_path_d20)
        why = translate(path.missing or tr("not computed"), lang)
        return Text(tr("Path of fights: {reason}", reason=why).translate(lang))
    main = path.of("median") or path.heroes[0]
    figures = ", ".join(
        f"{_LEVELS[hero.level].translate(lang)} {_figure(hero, lang)}" for hero in path.heroes
    )
    count = len(main.fights)
    fights = ntr("{count} fight", "{count} fights", count, count=count).translate(lang)
    line = tr(
        "Path of fights to § {target}: {figures}; {fights}",
        target=main.target,
        figures=figures,
        fights=fights,
    ).translate(lang)
    lowest = main.lowest()
    if lowest is not None:
        line += tr(
            "; lowest step § {paragraph} ({enemies}, {level} {chance})",
            paragraph=lowest.paragraph,
            enemies=lowest.enemies,
            level=_LEVELS[main.level],
            chance=percent(lowest.chance, lang),
        ).translate(lang)
    text = Text(line)
    if path.bounded:
        text.append(" " + tr("(the best path found within the search bounds)").translate(lang))
    text.append("\n  " + translate(_shown(main), lang), style="dim")
    for hero in path.heroes:  # a hero whose best path is another one
        if hero is not main and hero.paragraphs != main.paragraphs:
            other = tr("{level}: {path}", level=_LEVELS[hero.level], path=_shown(hero))
            text.append("\n  " + other.translate(lang), style="dim")
    if path.potion:
        text.append("\n  " + potion_counted(main, path.potion).translate(lang), style="dim")
    for paragraph, reason in main.reasons:
        why = tr("≈ § {paragraph}: {reason}", paragraph=paragraph, reason=translate(reason, lang))
        text.append("\n  " + why.translate(lang), style="dim")
    return text


def fight_path_data(path: FightPath | None, lang: str | None = None) -> dict[str, Any] | None:
    """The JSON ``fight_path`` object (null: no path of fights)."""
    if path is None:
        return None
    if not path.heroes:  # not computed for this ruleset: why
        return {"heroes": [], "reason": translate(path.missing or tr("not computed"), lang)}
    return {
        "bounded": path.bounded,
        "cut": path.cut,
        "labels": path.labels,
        "heroes": [_hero(hero, lang) for hero in path.heroes],
    }


def _hero(hero: HeroPath, lang: str | None) -> dict[str, Any]:
    return {
        "hero": hero.level,
        "class": hero.class_name,
        "win": round(hero.win, 6),
        "exact": hero.exact,
        "target": hero.target,
        "path": list(hero.paragraphs),
        "fights": [
            {
                "paragraph": step.paragraph,
                "enemies": step.enemies,
                "chance": round(step.chance, 6),
                "cumulative": round(step.cumulative, 6),
                "exact": step.exact,
            }
            for step in hero.fights
        ],
        "approximations": [
            {"paragraph": paragraph, "reason": translate(reason, lang)}
            for paragraph, reason in hero.reasons
        ],
    }
