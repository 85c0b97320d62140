"""Phrase the game's events for the reader, in the interface language (pure functions)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from dedale import ast
from dedale import events as ev
from dedale.i18n import french, has_message, message
from dedale.player.texts import Texts

StatNamer = Callable[[str], str]
OutcomeNamer = Callable[[str, str], "str | None"]


def enemy_articles(paragraphs: Iterable[Any]) -> french.Naming:
    """The article each enemy or ally of a book is written with (``> enemy the GOBLIN``):
    name -> article, and the enemies of the groups written once (``> enemies the three
    RATS … each``), for the narration."""
    from dedale.language.checks import walk

    found: dict[str, str] = {}
    groups: dict[str, french.Member] = {}
    for paragraph in paragraphs:
        for node in walk(paragraph):
            if not isinstance(node, ast.Enemy):
                continue
            if node.article:
                found.setdefault(node.name, node.article)
            group = node.group
            if group is not None and node.name not in groups:
                where = f"{group.span.file}:{group.span.line}:{group.span.column}"
                groups[node.name] = french.Member(
                    where, group.plural, group.singular, group.count, node.member,
                    group.feminine,
                )  # fmt: skip
    return french.Naming(found, groups)


def dress(texts: Texts, book: Any) -> None:
    """Give ``texts`` what the narration needs of ``book``: its enemies' articles and the
    hero's gender (``creation: gender: f``)."""
    texts.articles = book_articles(book)
    texts.book_gender = book_gender(book)


def book_gender(book: Any) -> str | None:
    """The hero's gender a loaded book gives (``creation: gender: f``), or None."""
    creation = getattr(getattr(book, "meta", None), "creation", None)
    return getattr(creation, "gender", None)


def book_articles(book: Any) -> french.Naming:
    """:func:`enemy_articles` of a loaded book (none for a book still loading)."""
    paragraphs = getattr(book, "paragraphs", None)
    if isinstance(paragraphs, Mapping):
        return enemy_articles(paragraphs.values())
    return french.Naming()


def foes(name: str, texts: Texts) -> french.Foes:
    """The enemies an event names, with their articles, number and gender."""
    return french.foes(name, texts.articles, texts.lang)


def dice_faces(faces: tuple[int, ...]) -> str:
    """``(5, 3)`` -> ``[5] [3]``: dice drawn with plain characters (safe in any terminal)."""
    return " ".join(f"[{face}]" for face in faces)


def dice_roll(faces: tuple[int, ...], total: int) -> str:
    """``[5] [3] = 8``; one die showing its total is just ``[17]`` (not ``[17] = 17``)."""
    if len(faces) == 1 and faces[0] == total:
        return dice_faces(faces)
    return f"{dice_faces(faces)} = {total}"


def outcome_text(texts: Texts, outcome: str, own_word: str | None = None) -> str:
    """The outcome of a test: the test's own word from the ruleset (Luck: "Lucky") or the
    usual one."""
    return own_word or texts(f"test.{outcome}")


def describe(
    event: ev.Event,
    texts: Texts,
    stat_name: StatNamer,
    *,
    meal_stat: str | None = None,
    outcome_word: OutcomeNamer | None = None,
) -> str | None:
    """One line of Rich markup for an event, or None for events shown another way
    (``meal_stat``: the stat a meal restores; ``outcome_word``: a test's own word for an
    outcome; both from the ruleset). French lines follow French typography."""
    line = _describe(event, texts, stat_name, meal_stat=meal_stat, outcome_word=outcome_word)
    return french.typography(line) if line is not None and texts.lang == "fr" else line


def prose(text: str, lang: str | None) -> str:
    """A paragraph's text as shown: French typography for a French book (no line starting
    with ":", no « left at a line's end)."""
    return french.typography(text) if lang == "fr" else text


def _describe(
    event: ev.Event,
    texts: Texts,
    stat_name: StatNamer,
    *,
    meal_stat: str | None = None,
    outcome_word: OutcomeNamer | None = None,
) -> str | None:
    match event:
        case ev.MessageShown(key=key, params=params):
            values = french.named(dict(params), texts.articles, texts.lang)
            if key == "initiative" and dict(params).get("first") == "hero":
                key = "initiative_hero"  # « Vous agissez en premier. »
            phrase = texts(f"messages.{key}", **values)
            if phrase == f"messages.{key}" and has_message(texts.lang, f"message.{key}"):
                phrase = message(texts.lang, f"message.{key}", **values)  # the plain player's
            if phrase == f"messages.{key}":
                details = ", ".join(f"{k}={v}" for k, v in params)
                phrase = f"{key} ({details})" if details else key
            return f"[i]{_escape(phrase)}[/i]"
        case ev.StatChanged(name=name, old=old, new=new, who="hero") if old == new:
            return _escape(texts("events.stat_unchanged", stat=stat_name(name), new=new))
        case ev.StatChanged(name=name, old=old, new=new, who="hero"):
            colour = "green" if new > old else "red"
            text = texts("events.stat", stat=stat_name(name), old=old, new=new)
            return f"[{colour}]{_escape(text)}[/{colour}]"
        case ev.StatChanged(name=name, old=old, new=new, who="counter"):
            return _escape(texts("events.stat", stat=stat_name(name), old=old, new=new))
        case ev.StatChanged(name=name, old=old, new=new, who=who):
            shown = french.capitalise(foes(who, texts).phrase)
            line = texts("events.enemy_stat", who=shown, stat=stat_name(name), old=old, new=new)
            return _escape(line)
        case ev.DiceRolled(purpose=purpose, faces=faces, total=total, target=target):
            label = dice_purpose(purpose, texts, stat_name)
            roll = dice_roll(faces, total)
            if target is not None:  # a duo test (reliques): « [1] [3] = 4 (au plus 10 : +6) »
                margin = f"{target - total:+d}".replace("+0", "0")
                roll += texts("dice_target", target=target, margin=margin)
            return _escape(texts("dice", purpose=label, roll=roll))
        case ev.TestResolved(name=name, roll=roll, target=target, outcome=outcome):
            result = outcome_text(texts, outcome, outcome_word and outcome_word(name, outcome))
            colour = "green" if "success" in outcome else "red"
            line = texts("test.roll", name=stat_name(name), roll=roll, target=target)
            return f"{_escape(line)} — [b {colour}]{_escape(result)}[/]"
        case ev.ItemGained(item=item, count=count):
            shown = f"{item} ×{count}" if count != 1 else item
            return _escape(texts("events.item_gained", item=shown))
        case ev.ItemLost(item=item, count=count):
            shown = f"{item} ×{count}" if count != 1 else item
            return _escape(texts("events.item_lost", item=shown))
        case ev.CodewordChanged(codeword=word, is_set=is_set):
            key = "events.codeword_set" if is_set else "events.codeword_cleared"
            return _escape(texts(key, codeword=word))
        case ev.WorldEntered(world=world):
            return _escape(texts("events.world", world=world))
        case ev.MealEaten(stamina_gained=gained, meals_left=left):
            return _escape(
                texts("events.meal", stamina=gained, stat=stat_name(meal_stat or ""), meals=left)
            )
        case ev.AssaultResolved():
            return assault_line(event, texts)
        case ev.EnemyDefeated(name=name):
            params = foes(name, texts).params()
            params["name"] = params["Enemy"]
            return f"[b]{_escape(texts('fight.defeated', **params))}[/b]"
        case ev.FightEnded(outcome=outcome):
            return f"[b]{_escape(texts(f'fight.{outcome}'))}[/b]"
        case ev.Death():
            return f"[b red]{_escape(texts('events.death'))}[/]"
        case ev.Victory():
            return f"[b green]{_escape(texts('events.victory'))}[/]"
    return None


def dice_purpose(purpose: str, texts: Texts, stat_name: StatNamer) -> str:
    """What dice were rolled for: ``hero_attack`` -> "Your attack", ``luck`` -> "Luck"."""
    if texts.has(f"purposes.{purpose}"):
        return texts(f"purposes.{purpose}")
    for suffix in ("_attack", "_initiative", "_dodge", "_parry"):
        if purpose.endswith(suffix) and texts.has(f"purposes.of{suffix}"):
            name = purpose[: -len(suffix)]
            return texts(f"purposes.of{suffix}", name=name, of_name=of_phrase(name, texts))
    return stat_name(purpose)


def assault_line(event: ev.AssaultResolved, texts: Texts) -> str:
    """``Assault 3: you 17, Orc 15: you wound Orc (-2)``."""
    params = foes(event.enemy, texts).params()
    if not event.hero_strength and not event.enemy_strength:  # a reliques action: no strengths
        head = texts("fight.turn", number=event.number, **params)
    else:
        head = texts(
            "fight.assault",
            number=event.number,
            hero=event.hero_strength,
            enemy_strength=event.enemy_strength,
            **params,
        )
    shown_note = event.note
    if event.winner == "hero":  # a blow that hits and does not wound says so
        key = "fight.assault_win"
        if not event.enemy_damage_taken:
            key, shown_note = "fight.assault_win_unhurt", "" if event.note == "hit" else event.note
        tail = texts(key, damage=event.enemy_damage_taken, **params)
        colour = "green"
    elif event.winner == "enemy":
        key = "fight.assault_lose"
        if event.note == "ally":  # the ally takes the blow: said once, not "wounds you"
            key, shown_note = "fight.assault_lose_ally", ""
        elif not event.hero_damage_taken:  # armour, a lucky Luck test, d20 RD
            key = "fight.assault_lose_unhurt"
            shown_note = "" if event.note == "hit" else event.note
        tail = texts(key, damage=event.hero_damage_taken, **params)
        colour = "red"
    else:
        tail, colour = texts("fight.assault_tie"), "yellow"
    note = ""
    if shown_note:
        shown = _note(shown_note, texts)
        note = f" ({shown})"
    colon = " :" if texts.lang == "fr" else ":"  # made non-breaking by french.typography
    return f"{_escape(head)}{colon} [{colour}]{_escape(tail + note)}[/{colour}]"


def _note(note: str, texts: Texts) -> str:
    """An assault's note ("hit", "riposte"...) in the reader's language: the player's own
    wording, else the one the plain player shows (``note.*``), else the note itself."""
    if texts.has(f"notes.{note}"):
        return texts(f"notes.{note}")
    if has_message(texts.lang, f"note.{note}"):
        return message(texts.lang, f"note.{note}")
    return note


def prompt_question(prompt: ev.YesNoPrompt, texts: Texts) -> str:
    """The question of a yes/no prompt, with its parameters."""
    params = {k: v for k, v in prompt.params}
    if "shown" in params:  # the damage the enemy's own rule makes it (`it deals 3`)
        params["damage"] = params["shown"]
    key = f"prompts.{prompt.kind}"
    if texts.has(f"{key}_{params.get('wound')}"):
        key = f"{key}_{params['wound']}"  # Luck on a wound dealt / taken
    elif texts.has(f"{key}_{params.get('use')}"):
        key = f"{key}_{params['use']}"  # a heroism point: reroll a die / cancel a loss
    if texts.has(key):
        return texts(key, **params)
    return texts("prompts.generic", kind=prompt.kind.replace("_", " "))


def of_phrase(name: str, texts: Texts) -> str:
    """``name`` after "de" in the interface language (French: ``d'action``, ``du Gobelin``)."""
    if texts.lang != "fr":
        return foes(name, texts).phrase  # "the GOBLIN", "the first RAT", "A and B"
    return foes(name, texts).of()


def _escape(text: str) -> str:
    return text.replace("[", r"\[")
