"""The plain player's screen-reader mode (``dedale play --plain --screen-reader``, or the
environment variable ``DEDALE_SCREEN_READER=1``): every line reads well aloud.

- dice, stat changes and the paragraph's number are sentences ("You roll 2 dice: 6 and 1,
  total 7."), never ``[6] [1]``, ``->`` or ``§``;
- a fight starts with the hero's chance of winning, said as a sentence, when the rules core
  can compute it;
- every question ends with the answers it accepts ("Answer with a number from 1 to 3.");
- no box drawing, block bars or decorative stars.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from dedale import events
from dedale.i18n import french
from dedale.plain.render import Renderer

ENVIRONMENT_VARIABLE = "DEDALE_SCREEN_READER"
_DRAWING = re.compile(r"[\u2500-\u259f]+|\*{3}")
_OFF = {"", "0", "no", "non", "false", "off"}


def wanted(flag: bool, environ: Mapping[str, str]) -> bool:
    """Whether the screen-reader mode is on: the flag, or ``DEDALE_SCREEN_READER`` set to
    anything but ``0``/``no``/``false``/``off``."""
    return flag or environ.get(ENVIRONMENT_VARIABLE, "").strip().lower() not in _OFF


def speakable(line: str) -> str:
    """``line`` without box drawing, block bars or decorative ``***``."""
    return " ".join(_DRAWING.sub(" ", line).split()) if _DRAWING.search(line) else line


class ScreenReaderRenderer(Renderer):
    """A :class:`Renderer` whose lines are sentences a screen reader says well."""

    def __init__(
        self,
        ruleset: Any,
        lang: str,
        articles: Mapping[str, str] | None = None,
        game: Any = None,
    ) -> None:
        super().__init__(ruleset, lang, articles)
        self.game = game  # for the chance of winning a fight

    def typeset(self, lines: list[str]) -> list[str]:
        return [speakable(line) for line in super().typeset(lines)]

    def numbers(self, values: list[int] | tuple[int, ...]) -> str:
        """``(6, 1)`` -> ``6 and 1`` / ``6 et 1``."""
        return french.join((str(value) for value in values), self.lang)

    # ------------------------------------------------------------------ events
    def _ParagraphEntered(self, e: events.ParagraphEntered) -> list[str]:
        return ["", self.t("sr.paragraph", number=e.number)]

    def _DiceRolled(self, e: events.DiceRolled) -> list[str]:
        count = len(e.faces)
        if count == 0:
            return super()._DiceRolled(e)
        faces = self.numbers(e.faces)
        enemy = e.purpose.removesuffix("_attack")
        if enemy not in (e.purpose, "hero"):  # an enemy's attack roll (issue 16.8)
            who = self.foes(enemy).phrase
            return [self.t("sr.dice_enemy", count=count, who=who, faces=faces, total=e.total)]
        return [self.t("sr.dice", count=count, faces=faces, total=e.total)]

    def _StatChanged(self, e: events.StatChanged) -> list[str]:
        name = self.name(e.name)
        if e.who == "counter":
            return [self.t("sr.counter", name=name, old=e.old, new=e.new)]
        if e.who != "hero":
            who = french.capitalise(self.foes(e.who).phrase)
            return [self.t("sr.enemy_stat", who=who, name=name, old=e.old, new=e.new)]
        key = "sr.stat_unchanged" if e.old == e.new else "sr.stat"
        return [self.t(key, name=name, old=e.old, new=e.new, initial=e.initial)]

    def _FightStarted(self, e: events.FightStarted) -> list[str]:
        lines = super()._FightStarted(e)
        chance, without_luck = self.fight_chance(e)
        if chance is not None:
            key = "sr.odds_without_luck" if without_luck else "sr.odds"
            lines.append(self.t(key, chance=chance))
        return lines

    def win_chance(self, e: events.FightStarted) -> str | None:
        """The hero's chance of winning the fight that starts, as a percentage, or None."""
        chance, without_luck = self.fight_chance(e)
        return None if without_luck else chance

    def fight_chance(self, e: events.FightStarted) -> tuple[str | None, bool]:
        """The fight hint's chance as a percentage (None: none), and whether it is the
        chance without testing Luck (a fight at once past its best-Luck bounds)."""
        if self.game is None or self.game.state.hero is None:
            return None, False
        from dedale.player.book_view import BookView
        from dedale.player.odds import fight_hint, percentage, plain_fights
        from dedale.player.session import SheetModel

        hero = self.game.state.hero
        sheet = SheetModel(
            class_name=hero.class_name or "",
            stats={stat: (value, hero.initial[stat]) for stat, value in hero.stats.items()},
        )
        enemies = {name: {s: (v, v) for s, v in stats} for name, stats in e.enemies}
        mode = {"as_one": "as_one"}.get(e.mode, e.mode)
        book, paragraph = BookView(self.game.book), self.game.state.paragraph
        if not plain_fights(book, paragraph):  # the plain odds would leave its rules out
            if not e.allies:
                return None, False
            from dedale.player.odds_special import WIN, special_hint

            allies = {name: {s: (v, v) for s, v in stats} for name, stats in e.allies}
            chance, kind = special_hint(book, sheet, paragraph, enemies, mode, allies)
            return (None if kind != WIN or chance is None else percentage(chance, self.lang)), False
        chance, without_luck = fight_hint(book, sheet, enemies, mode)
        return (None if chance is None else percentage(chance, self.lang)), without_luck

    # ------------------------------------------------------------------ prompts
    def prompt(self, prompt: events.Prompt) -> list[str]:
        """The lines of ``prompt``, the question ending with the answers it accepts."""
        lines = super().prompt(prompt)
        if isinstance(prompt, events.YesNoPrompt):
            mark = " " + self.typeset([self.t("prompt.yes_no")])[0]
            question = lines[-1].removesuffix(mark)
            return [*lines[:-1], f"{question} {self.t('sr.answers_yes_no')}"]
        answers = self.answers(prompt)
        if answers:
            lines[-1] = f"{lines[-1]} {answers}"
        return lines

    def answers(self, prompt: events.Prompt) -> str:
        """The sentence that says which answers ``prompt`` accepts ("" if none is known)."""
        if isinstance(prompt, events.ChoosePrompt):
            indexes = [o.index for o in prompt.options if o.enabled]
        elif isinstance(prompt, events.TargetPrompt):
            indexes = list(range(1, len(prompt.enemies) + 1))
        elif isinstance(prompt, events.DropItemPrompt):
            indexes = list(range(1, len(prompt.items) + 1))
        elif isinstance(prompt, events.ClassPrompt):
            indexes = list(range(1, len(prompt.classes) + 1))
        elif isinstance(prompt, events.NamePrompt):
            return self.t("sr.answers_text", default=prompt.default)
        elif isinstance(prompt, events.NumberPrompt):
            return self.t("sr.answers_any_number")
        else:
            return ""
        if not indexes:
            return ""
        if len(indexes) == 1:
            return self.t("sr.answers_one", number=indexes[0])
        if indexes == list(range(indexes[0], indexes[-1] + 1)):
            return self.t("sr.answers_range", low=indexes[0], high=indexes[-1])
        return self.t("sr.answers_list", numbers=self.numbers(indexes))
