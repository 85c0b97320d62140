"""A small scripted game yielding the real dedale.events over a real GameState, for tests that
must not depend on the interpreter's progress (the real Game is exercised in
test_real_game.py)."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import Any

from dedale import events as ev
from dedale.book import Book
from dedale.game import GameState
from dedale.language.metadata import BookMeta
from dedale.rules import Character


def real_ruleset(name: str) -> Any:
    """A built-in ruleset of the rules core (names, odds and help come from it)."""
    from dedale.rules import load_ruleset

    return load_ruleset(name)


def fake_book(ruleset: str = "df-classic") -> Book:
    """A real Book with no paragraphs (the scripted games tell the story) and a built-in
    ruleset: the player reads its title, author, language and ruleset."""
    meta = BookMeta(title="The Tower of Trials", author="A. Tester", language="en", ruleset=ruleset)
    return Book(
        meta=meta,
        paragraphs={},
        labels={},
        ruleset=real_ruleset(ruleset),
        root=Path("The Tower of Trials"),
        files=[],
        fingerprint="fake",
    )


def fake_hero(stats: dict[str, int], initial: dict[str, int]) -> Character:
    """A real hero (rules Character) with two meals, five gold pieces and a sword."""
    return Character(
        stats=stats, initial=initial, counters={"meals": 2, "gold": 5}, items={"Sword": 1}
    )


Step = Generator[ev.Event | ev.Prompt, Any, None]


class FakeGame:
    """Paragraph 1 offers a fight (2), a Luck test that kills (3) and a locked door."""

    def __init__(self, book: Book) -> None:
        self.book = book
        self.state = GameState()
        self.over = False
        self.outcome: str | None = None
        self._pending: Any = None
        self._run = self._story()
        self._started = False
        self._asked: ev.Prompt | None = None

    # ------------------------------------------------------------------ pull API
    def next(self) -> ev.Event | ev.Prompt | None:
        if self.over:
            return None
        try:
            if not self._started:
                self._started = True
                item = next(self._run)
                self._asked = item if isinstance(item, ev.Prompt) else None
                return item
            if self._pending is None and self._asked is not None:
                return self._asked  # the same prompt again until it is answered
            value, self._pending = self._pending, None
            item = self._run.send(value)
            self._asked = item if isinstance(item, ev.Prompt) else None
            return item
        except StopIteration:
            self.over = True
            return None

    def answer(self, value: object) -> None:
        self._pending = value

    def can_eat(self) -> bool:
        return self.state.hero is not None and self.state.hero.counters["meals"] > 0

    def eat(self) -> list[ev.Event]:
        hero = self.state.hero
        assert hero is not None
        hero.counters["meals"] -= 1
        old = hero.stats["STAMINA"]
        hero.stats["STAMINA"] = min(old + 4, hero.initial["STAMINA"])
        return [
            ev.MealEaten(
                stamina_gained=hero.stats["STAMINA"] - old, meals_left=hero.counters["meals"]
            ),
            ev.StatChanged(
                name="STAMINA", old=old, new=hero.stats["STAMINA"], initial=hero.initial["STAMINA"]
            ),
        ]

    # ------------------------------------------------------------------ the story
    def _change(self, stat: str, new: int, who: str = "hero") -> ev.StatChanged:
        hero = self.state.hero
        assert hero is not None
        old = hero.stats[stat]
        hero.stats[stat] = new
        return ev.StatChanged(name=stat, old=old, new=new, initial=hero.initial[stat], who=who)

    def _story(self) -> Step:
        rolls = {
            "SKILL": ((4,), 10, "1d6+6"),
            "STAMINA": ((5, 6), 23, "2d6+12"),
            "LUCK": ((3,), 9, "1d6+6"),
        }
        self.state.hero = fake_hero(stats={}, initial={})
        if self.book.ruleset.classes:
            chosen = yield ev.ClassPrompt(classes=tuple(self.book.ruleset.classes))
            self.state.hero.class_name = str(chosen)
        for stat, (faces, total, expression) in rolls.items():
            yield ev.DiceRolled(purpose=stat, faces=faces, total=total, expression=expression)
            self.state.hero.stats[stat] = total
            self.state.hero.initial[stat] = total
            yield ev.StatChanged(name=stat, old=0, new=total, initial=total)
        name = yield ev.NamePrompt(default="Ariane")
        self.state.name = str(name)
        yield ev.ParagraphEntered(number=1)
        yield ev.TextShown(
            text="You stand before the **Tower of Trials**. A door creaks to the north."
        )
        yield ev.ItemGained(item="Lantern")
        self.state.hero.items["Lantern"] = 1
        choice = yield ev.ChoosePrompt(
            options=(
                ev.ChoiceOption(index=0, text="Open the door and face the guard", target=2),
                ev.ChoiceOption(index=1, text="Climb the crumbling wall", target=3),
                ev.ChoiceOption(
                    index=2,
                    text="Use the silver key",
                    target=5,
                    enabled=False,
                    reason="you need the silver key",
                ),
            )
        )
        if choice == 0:
            yield from self._fight()
        else:
            yield from self._wall()

    def _fight(self) -> Step:
        yield ev.ParagraphEntered(number=2)
        yield ev.TextShown(text="A goblin guard bars the way, *blade drawn*.")
        yield ev.FightStarted(enemies=(("Goblin", (("SKILL", 6), ("STAMINA", 4))),))
        yield ev.DiceRolled(purpose="assault", faces=(5, 4), total=9)
        yield ev.AssaultResolved(
            number=1,
            enemy="Goblin",
            hero_strength=19,
            enemy_strength=13,
            winner="hero",
            enemy_damage_taken=2,
        )
        yield ev.StatChanged(name="STAMINA", old=4, new=2, initial=4, who="Goblin")
        use_luck = yield ev.YesNoPrompt(kind="use_luck")
        if use_luck:
            yield ev.DiceRolled(purpose="LUCK", faces=(2, 3), total=5)
            yield ev.TestResolved(name="luck", roll=5, target=9, outcome="success")
            yield self._change("LUCK", 8)
            yield ev.StatChanged(name="STAMINA", old=2, new=0, initial=4, who="Goblin")
        else:
            yield ev.AssaultResolved(
                number=2,
                enemy="Goblin",
                hero_strength=14,
                enemy_strength=16,
                winner="enemy",
                hero_damage_taken=2,
            )
            yield self._change("STAMINA", 21)
            yield ev.AssaultResolved(
                number=3,
                enemy="Goblin",
                hero_strength=18,
                enemy_strength=12,
                winner="hero",
                enemy_damage_taken=2,
            )
            yield ev.StatChanged(name="STAMINA", old=2, new=0, initial=4, who="Goblin")
        yield ev.EnemyDefeated(name="Goblin")
        yield ev.FightEnded(outcome="won", assaults=1 if use_luck else 3)
        yield ev.TextShown(text="The goblin flees. Stairs lead up.")
        self.state.codewords["brave"] = "Brave"
        yield ev.CodewordChanged(codeword="Brave", is_set=True)
        yield ev.ChoosePrompt(
            options=(ev.ChoiceOption(index=0, text="Climb the stairs", target=4),)
        )
        yield ev.ParagraphEntered(number=4)
        yield ev.TextShown(text="At the top, the sunrise. *Your quest is over.*")
        self.outcome = "victory"
        yield ev.Victory()

    def _wall(self) -> Step:
        yield ev.ParagraphEntered(number=3)
        yield ev.TextShown(text="The wall is slippery. Test your Luck.")
        yield ev.DiceRolled(purpose="LUCK", faces=(6, 6), total=12)
        yield ev.TestResolved(name="luck", roll=12, target=9, outcome="failure")
        yield self._change("LUCK", 8)
        yield self._change("STAMINA", 0)
        yield ev.TextShown(text="You fall from the wall.")
        self.outcome = "death"
        yield ev.Death(reason="fall")


def fake_app(*, lang: str | None = None, classes: bool = False, slots: Any = None, **kwargs: Any):
    """A DedaleApp over a FakeGame."""
    from dedale.player.app import DedaleApp

    book = fake_book("df48.5" if classes else "df-classic")
    return DedaleApp(book, FakeGame, lang=lang, slots=slots, **kwargs)


class ScriptedGame:
    """Yields a fixed list of events and prompts, recording the answers it gets."""

    def __init__(self, items: list[ev.Event | ev.Prompt]) -> None:
        self.items = list(items)
        self.answers: list[object] = []
        self.state = GameState(hero=fake_hero(stats={"STAMINA": 10}, initial={"STAMINA": 12}))
        self.over = False
        self.outcome = "victory"
        self._waiting: ev.Prompt | None = None

    def next(self) -> ev.Event | ev.Prompt | None:
        if self._waiting is not None:
            return self._waiting
        if not self.items:
            self.over = True
            return None
        item = self.items.pop(0)
        if isinstance(item, ev.Prompt):
            self._waiting = item
        return item

    def answer(self, value: object) -> None:
        self.answers.append(value)
        self._waiting = None
