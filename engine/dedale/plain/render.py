"""Events and prompts as plain text lines (French or English), for the plain player."""

from __future__ import annotations

import re
from collections.abc import Mapping

from dedale import events
from dedale.i18n import french, has_message, message
from dedale.rules import Ruleset

_EMPHASIS = re.compile(r"(\*\*|__|\*|`)(.+?)\1", re.DOTALL)

_LABELLED_ROLLS = frozenset({"first_roll", "second_roll"})
_FIGHT_ROLLS = ("initiative", "dodge", "parry")


def plain_text(text: str) -> str:
    """Light Markdown without its marks (``**bold**`` -> ``bold``), for screen readers."""
    return _EMPHASIS.sub(r"\2", text)


class Renderer:
    """Turns events and prompts into lines of text in one language."""

    def __init__(
        self, ruleset: Ruleset, lang: str, articles: Mapping[str, str] | None = None
    ) -> None:
        self.ruleset = ruleset
        self.lang = lang
        self.turn_to = False  # choices say where they lead (``--turn-to``, issue 16.3)
        self.in_turns = False  # the fight under way counts turns (reliques)
        self.started = False  # a paragraph was entered: the creation is over
        self.rolled: dict[str, int] = {}  # stats just rolled at creation, and their totals
        self.articles: Mapping[str, str] = articles or {}  # enemy name -> its article
        self.hero_gender: str | None = None  # "f": "Vous êtes morte"

    def t(self, key: str, **params: object) -> str:
        params.setdefault("hero_e", "e" if self.hero_gender == "f" else "")
        return message(self.lang, key, **params)

    def name(self, ident: str) -> str:
        """The display name of a stat, counter or test id (``d20:DEX`` names its stat)."""
        if has_message(self.lang, f"test.{ident}"):
            return self.t(f"test.{ident}")
        return self.ruleset.display_name(ident.rpartition(":")[2], self.lang)

    def foes(self, name: str) -> french.Foes:
        """The enemies an event names, with their articles, number and gender."""
        return french.foes(name, self.articles, self.lang)

    def of_name(self, name: str) -> str:
        """A test's name after "de" (French ``Test d'action``; English: the name)."""
        return french.of(name) if self.lang == "fr" else name

    def outcome(self, outcome: str) -> str:
        return self.t(f"outcome.{outcome}")

    def test_outcome(self, test: str, outcome: str) -> str:
        """The test's own word for the outcome (Luck: lucky), else the usual one."""
        own = self.ruleset.outcome_name(test, outcome, self.lang)
        return own.lower() if own else self.outcome(outcome)

    def event(self, event: events.Event) -> list[str]:
        """The lines that show ``event`` (possibly none)."""
        kind = type(event).__name__
        method = getattr(self, f"_{kind}", None)
        if method is None:
            return [self.t("event.unknown", kind=kind)]
        return self.typeset(method(event))

    def typeset(self, lines: list[str]) -> list[str]:
        """French lines with French typography (non-breaking spaces before ``: ; ! ?`` and
        inside « »); other languages as they are."""
        if self.lang != "fr":
            return lines
        return [french.typography(line) for line in lines]

    # ------------------------------------------------------------------ events

    def _ParagraphEntered(self, e: events.ParagraphEntered) -> list[str]:
        self.started = True
        return ["", f"§ {e.number}"]

    def _TextShown(self, e: events.TextShown) -> list[str]:
        return [plain_text(e.text)]

    def _MessageShown(self, e: events.MessageShown) -> list[str]:
        params = french.named(dict(e.params), self.articles, self.lang)
        if e.key == "initiative" and params.get("first") == "hero":
            return [self.t("message.initiative_hero")]
        return [self.t(f"message.{e.key}", **params)]

    def _StatChanged(self, e: events.StatChanged) -> list[str]:
        name = self.name(e.name)
        if e.old == 0 and self.rolled.pop(e.name, None) == e.new:
            return []  # the creation roll's line already gave it ("SKILL: 1d6+6 -> 2 = 8")
        if not self.started and e.old == 0 and e.who in ("hero", "counter"):
            return [self.t("event.stat_start", name=name, new=e.new)]  # « HABILETÉ : 9 »
        if e.who == "counter":
            return [self.t("event.counter", name=name, old=e.old, new=e.new)]
        if e.who != "hero":
            who = french.capitalise(self.foes(e.who).phrase)
            return [self.t("event.enemy_stat", who=who, name=name, old=e.old, new=e.new)]
        key = "event.stat_unchanged" if e.old == e.new else "event.stat"
        return [self.t(key, name=name, old=e.old, new=e.new, initial=e.initial)]

    def _DiceRolled(self, e: events.DiceRolled) -> list[str]:
        roll = dice_shown(e.faces, e.total)
        if e.target is not None:  # « 1 + 3 = 4 (au plus 10 : marge +6) »
            margin = f"{e.target - e.total:+d}".replace("+0", "0")
            roll += self.t("event.dice_target", target=e.target, margin=margin)
        if e.expression and any(stat.id == e.purpose for stat in self.ruleset.stats):
            name = self.name(e.purpose)
            self.rolled[e.purpose] = e.total
            return [self.t("event.creation_roll", name=name, expression=e.expression, roll=roll)]
        for kind in _FIGHT_ROLLS:  # reliques: whose initiative, dodge or parry the dice are
            who = e.purpose.removesuffix(f"_{kind}")
            if who == "hero":
                return [self.t(f"event.dice_hero_{kind}", roll=roll)]
            if who != e.purpose:
                foes = self.foes(who)
                shown = foes.of() if self.lang == "fr" else foes.phrase
                return [self.t(f"event.dice_enemy_{kind}", roll=roll, of_enemy=shown)]
        one = "_one" if len(e.faces) == 1 else ""  # "you roll the die", not "the dice"
        enemy = e.purpose.removesuffix("_attack")
        if enemy == "hero":  # the hero's attack roll, and the enemy's alike (issue 16.8)
            return [self.t(f"event.dice_hero{one}", roll=roll)]
        if enemy != e.purpose:
            params = self.foes(enemy).params()
            return [self.t(f"event.dice_enemy{one}", roll=roll, **params)]
        if e.purpose in _LABELLED_ROLLS:  # two rolls compared (dedale.game.test_forms)
            return [self.t(f"event.dice_{e.purpose}", roll=roll)]
        return [self.t("event.dice", roll=roll, purpose=e.purpose)]

    def _TestResolved(self, e: events.TestResolved) -> list[str]:
        name = self.name(e.name)
        return [
            self.t(
                "event.test",
                name=name,
                of_name=self.of_name(name),
                roll=e.roll,
                target=e.target,
                outcome=self.test_outcome(e.name, e.outcome),
                margin=e.margin,
            )  # fmt: skip
        ]

    def _FightStarted(self, e: events.FightStarted) -> list[str]:
        lines = [self.t("event.fight")]
        for enemy, stats in e.enemies:
            values = ", ".join(f"{self.name(stat)} {value}" for stat, value in stats)
            lines.append(f"  {self.foes(enemy).phrase} ({values})")
        for ally, stats in e.allies:  # "> ally BRAN SKILL 8 STAMINA 10": beside the hero
            values = ", ".join(f"{self.name(stat)} {value}" for stat, value in stats)
            name = french.capitalise(self.foes(ally).phrase)
            lines.append(self.t("event.fight_ally", ally=name, values=values))
        return lines

    def _AssaultResolved(self, e: events.AssaultResolved) -> list[str]:
        outcome = {"hero": "won", "enemy": "lost"}.get(e.winner, "tie")
        kind = "assault" if e.hero_strength or e.enemy_strength else "action"
        self.in_turns = kind == "action"  # a reliques fight counts turns, not assaults
        note = e.note
        key = f"event.{kind}_{outcome}"
        if kind == "assault":  # a blow that hits and does not wound says so
            if outcome == "lost" and note == "ally":
                key, note = "event.assault_lost_ally", ""  # the ally takes it: said once
            elif outcome == "lost" and not e.hero_damage_taken:
                key = "event.assault_lost_unhurt"  # armour, a lucky Luck test, d20 RD
                note = "" if note == "hit" else note  # "hits you" says it already
            elif outcome == "won" and not e.enemy_damage_taken:
                key = "event.assault_won_unhurt"
                note = "" if note == "hit" else note
        line = self.t(
            key,
            number=e.number,
            hero=e.hero_strength,
            foe=e.enemy_strength,
            **self.foes(e.enemy).params(),
        )
        if note:
            note = self.t(f"note.{note}") if has_message(self.lang, f"note.{note}") else note
            line += f" ({note})"
        return [line]

    def _EnemyDefeated(self, e: events.EnemyDefeated) -> list[str]:
        params = self.foes(e.name).params()
        params["name"] = params["Enemy"]
        return [self.t("event.enemy_defeated", **params)]

    def _FightEnded(self, e: events.FightEnded) -> list[str]:
        key = f"event.fight_{e.outcome}"
        if self.in_turns and has_message(self.lang, f"{key}_turns"):
            key += "_turns"  # « (2 tours) »
        self.in_turns = False
        return [self.t(key, count=e.assaults, assaults=e.assaults)]

    def _ItemGained(self, e: events.ItemGained) -> list[str]:
        return [self.t("event.item_gained", item=e.item, count=e.count)]

    def _ItemLost(self, e: events.ItemLost) -> list[str]:
        return [self.t("event.item_lost", item=e.item, count=e.count)]

    def _CodewordChanged(self, e: events.CodewordChanged) -> list[str]:
        key = "event.codeword_set" if e.is_set else "event.codeword_cleared"
        return [self.t(key, codeword=e.codeword)]

    def _WorldEntered(self, e: events.WorldEntered) -> list[str]:
        return [self.t("event.world", world=e.world)]

    def _MealEaten(self, e: events.MealEaten) -> list[str]:
        return [
            self.t("event.meal", count=e.meals_left, gained=e.stamina_gained, left=e.meals_left)
        ]

    def _Death(self, e: events.Death) -> list[str]:
        return ["", self.t("event.death")]

    def _Victory(self, e: events.Victory) -> list[str]:
        return ["", self.t("event.victory")]

    # ------------------------------------------------------------------ prompts

    def choice_text(self, option: events.ChoiceOption) -> str:
        """A choice's text; a choice written with none (``-> 12``) reads "Turn to 12"."""
        text = plain_text(option.text).strip()
        if text and self.turn_to and option.target is not None and not option.computed:
            return self.t("prompt.choice_turn_to", text=text, number=option.target)
        if text:
            return text
        if option.target is None or option.computed:
            return self.t("prompt.go_on")
        return self.t("prompt.turn_to", number=option.target)

    def prompt(self, prompt: events.Prompt) -> list[str]:
        """The lines that ask ``prompt`` (the last one is the question)."""
        kind = type(prompt)
        if kind is events.ChoosePrompt:
            lines = []
            for option in prompt.options:  # type: ignore[attr-defined]
                text = self.choice_text(option)
                if option.enabled:
                    lines.append(f"  {option.index}. {text}")
                else:
                    reason = option.reason
                    lines.append(
                        self.t("prompt.disabled", index=option.index, text=text, reason=reason)
                    )
            return [*lines, self.t("prompt.choose")]
        if kind is events.YesNoPrompt:
            params = dict(prompt.params)  # type: ignore[attr-defined]
            for key, value in list(params.items()):
                if isinstance(value, str):
                    params[key] = self.name(value)
            if "shown" in params:  # the damage the enemy's own rule makes it (`it deals 3`)
                params["damage"] = params["shown"]
            key = f"ask.{prompt.kind}"  # type: ignore[attr-defined]
            wound = dict(prompt.params).get("wound")  # type: ignore[attr-defined]
            use = dict(prompt.params).get("use")  # type: ignore[attr-defined]
            if wound and has_message(self.lang, f"{key}_{wound}"):
                key = f"{key}_{wound}"  # Luck on a wound dealt / taken
            elif use and has_message(self.lang, f"{key}_{use}"):
                key = f"{key}_{use}"  # a heroism point: reroll a die / cancel a loss
            question = self.t(key, **params)
            return self.typeset([f"{question} {self.t('prompt.yes_no')}"])
        if kind is events.TargetPrompt:
            names = prompt.enemies  # type: ignore[attr-defined]
            lines = [
                f"  {i}. {french.panel_name(name, self.articles, self.lang)}"
                for i, name in enumerate(names, start=1)
            ]
            return [*lines, self.t("prompt.target")]
        if kind is events.DropItemPrompt:
            items = prompt.items  # type: ignore[attr-defined]
            lines = [f"  {i}. {item}" for i, item in enumerate(items, start=1)]
            return [*lines, self.t("prompt.drop", count=prompt.limit, limit=prompt.limit)]  # type: ignore[attr-defined]
        if kind is events.ClassPrompt:
            lines = []
            for i, ident in enumerate(prompt.classes, start=1):  # type: ignore[attr-defined]
                klass = self.ruleset.classes.get(ident)
                shown = klass.names.get(self.lang, ident) if klass else ident
                lines.append(f"  {i}. {shown}")
            return [*lines, self.t("prompt.class")]
        if kind is events.NamePrompt:
            return [self.t("prompt.name", default=prompt.default)]  # type: ignore[attr-defined]
        if kind is events.NumberPrompt:
            key = f"prompt.{prompt.kind}"  # type: ignore[attr-defined]
            return [self.t(key) if has_message(self.lang, key) else self.t("prompt.number")]
        return [self.t("prompt.unknown", kind=kind.__name__)]


def dice_shown(faces: tuple[int, ...], total: int) -> str:
    """``4 + 3 = 7``; one die showing its total is just ``17`` (not ``17 = 17``)."""
    if len(faces) == 1 and faces[0] == total:
        return str(total)
    return f"{' + '.join(str(f) for f in faces) or '-'} = {total}"
