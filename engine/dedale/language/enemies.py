"""Enemy and ally lines against the ruleset's fight section: every stat an enemy is given
must be one the ruleset knows (else "did you mean HABILETÉ?"), and every stat the fight
procedure reads from an enemy must be given (else the enemy would fight with 0).

What a procedure needs is read from the ruleset's data (its ``fight`` parameters: the
attack and health stats, the d20 and Reliques ``enemy_keys``), never from its name.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from dedale import ast
from dedale.errors import read_source_line
from dedale.i18n import Localised, tr, translate
from dedale.i18n.french import of
from dedale.language.keywords import fold
from dedale.rules.ruleset import D20Fight, OpposedFight, ReliquesFight
from dedale.span import Span

_IDS = "ids"  # a line naming stats by the ruleset's ids (``FOR``), not by a language's names
Report = Callable[[str, Span, "str | None"], None]


@dataclass(frozen=True, slots=True)
class Need:
    """A value the fight procedure reads from every enemy: its spellings (folded, lower)
    and the stat it stands for (None for a d20/Reliques enemy key such as HP)."""

    spellings: frozenset[str]
    stat: str | None
    shown: tuple[str, ...]  # the spellings as the ruleset writes them, for messages
    key: str = ""  # the enemy key (health, armour_class) when ``stat`` is None


def _key(name: str) -> str:
    return fold(name).lower().strip()


class EnemyChecker:
    """Checks the enemies and allies of fights against one ruleset."""

    def __init__(self, ruleset: Any, report: Report):
        self.ruleset = ruleset
        self.report = report
        self.params = ruleset.fight
        self.spellings = self._spellings()
        self._needs: dict[str | None, list[Need]] = {}  # by the fight's `attack with` stat

    # ------------------------------------------------------------------ vocabulary
    def _stat_names(self, stat: Any) -> tuple[str, ...]:
        return (stat.id, *stat.names.values(), *stat.aliases)

    def _enemy_keys(self) -> dict[str, tuple[str, ...]]:
        return dict(getattr(self.params, "enemy_keys", None) or {})

    def _spellings(self) -> dict[str, str]:
        """Every name an enemy value may have (folded -> as the ruleset writes it)."""
        known: dict[str, str] = {}
        for stat in self.ruleset.stats:
            for name in self._stat_names(stat):
                known.setdefault(_key(name), name)
        for aliases in self._enemy_keys().values():
            for name in aliases:
                known.setdefault(_key(name), name)
        return known

    def _stat_need(self, stat_id: str) -> Need:
        try:
            names = self._stat_names(self.ruleset.stat(stat_id))
        except KeyError:
            names = (stat_id,)
        return Need(frozenset(_key(n) for n in names), stat_id, names)

    def _key_need(self, key: str) -> Need:
        aliases = self._enemy_keys().get(key) or (key,)
        return Need(frozenset(_key(a) for a in aliases), None, tuple(aliases), key)

    def needs(self, fight: ast.Fight) -> list[Need]:
        """What the fight procedure reads from each enemy of ``fight``."""
        params = self.params
        if isinstance(params, OpposedFight):
            attack = fight.attack_stat or params.attack_stat
            found = self.ruleset.resolve(attack)
            attack = found[1] if found and found[0] == "stat" else attack
            return [self._stat_need(attack), self._stat_need(params.health)]
        if isinstance(params, D20Fight):
            return [self._key_need("health")]
        if isinstance(params, ReliquesFight):
            duos = (*params.initiative, *params.attack, *params.dodge, *params.parry)
            stats = dict.fromkeys(duos)
            needs = [self._stat_need(s) for s in stats]
            try:
                roll = self.ruleset.stat(params.health).roll
            except KeyError:
                roll = None
            if roll is None or roll.dice:  # no health of its own to compute
                needs.append(self._key_need("health"))
            return needs
        return []

    # ------------------------------------------------------------------ checks
    def fight(self, fight: ast.Fight) -> None:
        """Report unknown and missing values of every enemy and ally of ``fight``."""
        needs = self._needs.get(fight.attack_stat)
        if needs is None:
            needs = self._needs[fight.attack_stat] = self.needs(fight)
        for enemy in (*fight.enemies, *fight.allies):
            self.enemy(enemy, needs)
        self.rules(fight)

    def rules(self, fight: ast.Fight) -> None:
        """Rules under an enemy that this ruleset's fights cannot play are load errors:
        a double (only FF attack rolls have one) and ``its STAT`` on a stat the fight does
        not read from its enemies (the attack stat or the health of an FF fight)."""
        params = self.params
        opposed = isinstance(params, OpposedFight)
        wanted: set[str] = set()
        if opposed:
            attack = fight.attack_stat or params.attack_stat
            found = self.ruleset.resolve(attack)
            wanted = {found[1] if found and found[0] == "stat" else attack, params.health}
        for rule in fight.rules:
            if rule.kind != "event":
                continue
            if rule.on == "double" and not opposed:
                self.report(
                    tr("this ruleset's fights have no double to act on"), rule.span,
                    tr("`on a double` / `sur un double` is for FF-family fights"),
                )  # fmt: skip
            for effect in rule.effects:
                if not isinstance(effect, ast.EnemyStatChange):
                    continue
                found = self.ruleset.resolve(effect.stat)
                if found is None or found[0] != "stat":
                    continue  # an unknown name: reported by the name check
                if found[1] not in wanted:
                    names = " / ".join(sorted(wanted)) or "-"
                    self.report(
                        tr("`its {stat}` changes nothing in this fight", stat=effect.stat),
                        effect.span,
                        tr("an enemy's stat that a rule may change: {names}", names=names),
                    )  # fmt: skip

    def enemy(self, enemy: ast.Enemy, needs: list[Need]) -> None:
        written = [_key(name) for name, _value in enemy.stats]
        unknown = False
        for (name, _value), key in zip(enemy.stats, written, strict=True):
            if key in self.spellings:
                continue
            unknown = True
            self.report(
                tr("unknown enemy stat `{name}`", name=name),
                _word_span(enemy, name),
                self._suggest(name),
            )
        if unknown:
            return  # a misspelt stat explains the missing one
        given = set(written)
        self.values(enemy, needs)
        for need in needs:
            if not need.spellings.isdisjoint(given):
                continue
            shown = self._shown(need, self._language(written))
            in_name = next(
                (w for w in enemy.name.split() if _key(w) in need.spellings), None
            )  # "GOBLIN SKILL STAMINA 6": the value of SKILL is missing
            hint = (
                tr("is a value missing? write it like `{stat} 7`", stat=in_name)
                if in_name
                else tr(
                    "give it like `{name} {stat} 7`: the fight reads it from every enemy",
                    name=enemy.name,
                    stat=shown,
                )
            )
            self.report(
                tr(
                    "the enemy `{name}` has no {stat}",
                    name=enemy.name,
                    stat=shown,
                    of_name=Localised({"en": shown, "fr": of(translate(shown, "fr"))}),
                ),
                enemy.span,
                hint,
            )

    def values(self, enemy: ast.Enemy, needs: list[Need]) -> None:
        """A stat below 0, or a health that leaves the enemy beaten before the first
        assault (given as 0, or computed from its characteristics), is a load error."""
        numbers: dict[str, int] = {}  # stat id (or folded key) -> value
        for name, value in enemy.stats:
            if not isinstance(value, int):
                continue  # dice, rolled when the fight starts
            found = self.ruleset.resolve(name)
            if found is not None and found[0] == "stat":
                numbers[found[1]] = value
                if value < 0:
                    self.report(
                        tr("{stat} {value} is out of range for an enemy", stat=name, value=value),
                        _word_span(enemy, name),
                        tr("an enemy's characteristic is at least 0"),
                    )
                    return
            numbers.setdefault(_key(name), value)
        health = self._health(needs, numbers)
        if health is None or health[1] > 0:
            return
        shown, value = health
        self.report(
            tr(
                "the enemy `{name}` starts the fight with {value} {stat}: it would be beaten "
                "before the first assault",
                name=enemy.name,
                value=value,
                stat=shown,
            ),
            enemy.span,
            tr("give it at least 1, or take it out of the fight"),
        )

    def _health(self, needs: list[Need], numbers: dict[str, int]) -> tuple[Any, int] | None:
        """The enemy's health as written (or computed by the ruleset's health roll from
        its characteristics, reliques), with its name; None when not known here."""
        health_stat = getattr(self.params, "health", None)
        for need in needs:
            if need.stat is not None and need.stat == health_stat and need.stat in numbers:
                return self._shown(need, None), numbers[need.stat]
            if need.stat is None and need.key == "health":
                value = next((numbers[k] for k in need.spellings if k in numbers), None)
                if value is not None:
                    return self._shown(need, None), value
        if not isinstance(self.params, ReliquesFight) or health_stat is None:
            return None
        try:
            stat = self.ruleset.stat(health_stat)
        except KeyError:
            return None
        if stat.roll is None or stat.roll.dice:
            return None

        def value(name: str) -> int:
            found = self.ruleset.resolve(name)
            return numbers[found[1] if found else name]

        try:
            total, _ = stat.roll.roll(None, value)
        except (KeyError, TypeError, AttributeError):
            return None
        return self._shown(self._stat_need(health_stat), None), total

    def _suggest(self, name: str) -> str:
        close = difflib.get_close_matches(_key(name), list(self.spellings), n=1, cutoff=0.6)
        if close:
            return tr("did you mean `{name}`?", name=self.spellings[close[0]])
        needs = [self._stat_need(s.id) for s in self.ruleset.stats]
        needs += [self._key_need(key) for key in self._enemy_keys()]
        names = {
            lang: ", ".join(sorted(writable(translate(self._shown(n, None), lang) for n in needs)))
            for lang in ("en", "fr")
        }
        return tr("an enemy's stats are the ruleset's: {names}", names=Localised(names))

    def _language(self, written: list[str]) -> str | None:
        """The language the author names stats in on this line (``ENDURANCE`` -> fr)."""
        votes: Counter[str] = Counter()
        named = [stat.names for stat in self.ruleset.stats]
        named += list((getattr(self.params, "enemy_key_names", None) or {}).values())
        for names in named:
            if len(set(map(_key, names.values()))) < 2:
                continue  # the same word in both languages says nothing
            for lang, name in names.items():
                if _key(name) in written:
                    votes[lang] += 1
        for stat in self.ruleset.stats:  # ``FOR 3 AGL 4``: the ruleset's own short names
            if _key(stat.id) in written and _key(stat.id) not in map(_key, stat.names.values()):
                votes[_IDS] += 1
        return votes.most_common(1)[0][0] if votes else None

    def _shown(self, need: Need, lang: str | None) -> str:
        """The value's name in ``lang`` (the line's), else in the reader's language."""
        names = self._names(need)
        if not names:
            return need.stat or need.shown[0]
        if lang == _IDS and need.stat is not None:
            return need.stat
        if lang is not None and lang != _IDS:
            return names.get(lang) or need.stat or need.shown[0]
        return Localised({"en": names.get("en") or need.shown[0], **names})

    def _names(self, need: Need) -> dict[str, str]:
        if need.stat is not None:
            try:
                return dict(self.ruleset.stat(need.stat).names)
            except KeyError:
                return {}
        key_names = getattr(self.params, "enemy_key_names", None) or {}
        return next(
            (dict(names) for key, names in key_names.items() if _key(key) == _key(need.key)),
            {},
        )


def writable(names: Iterable[str]) -> set[str]:
    """The names an enemy line can hold: one word each (``POINTS DE VIE`` cannot be)."""
    return {name for name in names if len(name.split()) == 1}


def _word_span(enemy: ast.Enemy, word: str) -> Span:
    """Where ``word`` (a stat's name) is written on the enemy's line, else the enemy's span.

    Only computed for an error: the line is read back from the file."""
    span = enemy.span
    line = read_source_line(span) if span.end_line in (None, span.line) else None
    if line is None:
        return span
    pattern = re.compile(r"(?<![\w'-])" + re.escape(word) + r"(?![\w'-])")
    found = pattern.search(line, max(0, span.column - 1 + len(enemy.name)))
    if found is None:
        return span
    return Span(span.file, span.line, found.start() + 1, span.line, found.end() + 1)
