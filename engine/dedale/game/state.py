"""GameState: all the mutable data of one game, serialisable to plain JSON-able dicts.

The Book is immutable; everything a game changes lives here: the current paragraph, the
hero (a :class:`dedale.rules.Character`: stats current and initial, counters, inventory,
class, name), codewords, visited paragraphs and Worlds, whether a meal may be eaten now,
the history of paragraphs entered and the outcome, and the book's own flags and counters
(book.yaml ``state:``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dedale.game.cache import folded
from dedale.game.hero import hero_from_dict, hero_to_dict
from dedale.rules import Character

STATE_VERSION = 1


@dataclass(slots=True)
class HistoryEntry:
    """A paragraph entered, and how many decisions had been taken before entering it."""

    paragraph: int
    decisions: int

    def to_list(self) -> list[int]:
        return [self.paragraph, self.decisions]


@dataclass(slots=True)
class GameState:
    """The mutable state of a game (see the module docstring)."""

    hero: Character | None = None
    name: str = ""
    paragraph: int | None = None
    codewords: dict[str, str] = field(default_factory=dict)  # folded -> as written
    visited: dict[int, int] = field(default_factory=dict)  # paragraph -> times entered
    worlds: list[str] = field(default_factory=list)  # Worlds entered, in order (as written)
    meal_allowed: bool = False
    in_fight: bool = False
    history: list[HistoryEntry] = field(default_factory=list)
    outcome: str | None = None  # "victory" / "death"
    death_reason: str = ""
    came_from: int | None = None  # the paragraph entered before the current one
    marks: dict[str, int] = field(default_factory=dict)  # noted paragraphs (folded name)
    statuses: dict[str, dict[str, Any]] = field(default_factory=dict)  # ongoing effects
    item_numbers: dict[str, int] = field(default_factory=dict)  # numbers noted on items
    stop: int = 0  # the choices before a rule being offered: their rank in the paragraph
    flags: set[str] = field(default_factory=set)  # the book's flags set (declared names)
    counts: dict[str, int] = field(default_factory=dict)  # the book's counters moved
    penalties: dict[str, dict[str, Any]] = field(default_factory=dict)  # until an item
    gender: str = ""  # the hero's as the player chose it ("f" / "m"; "": not chosen)

    # ------------------------------------------------------------------ queries

    def has_codeword(self, codeword: str) -> bool:
        return folded(codeword) in self.codewords

    def world_visited(self, world: str) -> bool:
        wanted = folded(world)
        return any(folded(seen) == wanted for seen in self.worlds)

    # ------------------------------------------------------------------ serialisation

    def to_dict(self, *, history: bool = True) -> dict[str, Any]:
        """A JSON-able snapshot (sorted where order does not matter, for stable diffs);
        ``history=False`` leaves the history out (it may hold 100,000 entries)."""
        data = self._base_dict(history)
        # issue 8 additions, written only when used (older saves stay byte-identical)
        if self.came_from is not None:
            data["came_from"] = self.came_from
        if self.marks:
            data["marks"] = dict(sorted(self.marks.items()))
        if self.statuses:
            data["statuses"] = {k: dict(v) for k, v in sorted(self.statuses.items())}
        if self.item_numbers:
            data["item_numbers"] = dict(sorted(self.item_numbers.items()))
        if self.stop:
            data["stop"] = self.stop
        # issue 13 §4: the book's own flags and counters, written only when used
        if self.flags:
            data["flags"] = sorted(self.flags)
        if self.counts:
            data["counts"] = dict(sorted(self.counts.items()))
        if self.penalties:  # issue 13 §7
            data["penalties"] = {k: dict(v) for k, v in self.penalties.items()}
        if self.gender:  # issue 16.5: the French sentences about the hero agree with it
            data["gender"] = self.gender
        return data

    def _base_dict(self, history: bool = True) -> dict[str, Any]:
        data = {
            "version": STATE_VERSION,
            "hero": hero_to_dict(self.hero) if self.hero is not None else None,
            "name": self.name,
            "paragraph": self.paragraph,
            "codewords": sorted(self.codewords.values()),
            "visited": {str(k): v for k, v in sorted(self.visited.items())},
            "worlds": list(self.worlds),
            "meal_allowed": self.meal_allowed,
            "in_fight": self.in_fight,
        }
        if history:
            data["history"] = [entry.to_list() for entry in self.history]
        data["outcome"] = self.outcome
        data["death_reason"] = self.death_reason
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_dict` output (raises KeyError/TypeError/ValueError
        on malformed data; callers turn that into a SaveError)."""
        hero = data.get("hero")
        return cls(
            hero=hero_from_dict(hero) if hero is not None else None,
            name=str(data.get("name", "")),
            paragraph=data["paragraph"],
            codewords={folded(word): word for word in data["codewords"]},
            visited={int(k): int(v) for k, v in data["visited"].items()},
            worlds=[str(world) for world in data["worlds"]],
            meal_allowed=bool(data["meal_allowed"]),
            in_fight=bool(data.get("in_fight", False)),
            history=[HistoryEntry(int(p), int(d)) for p, d in data["history"]],
            outcome=data.get("outcome"),
            death_reason=str(data.get("death_reason", "")),
            came_from=None if data.get("came_from") is None else int(data["came_from"]),
            marks={str(k): int(v) for k, v in (data.get("marks") or {}).items()},
            statuses={str(k): dict(v) for k, v in (data.get("statuses") or {}).items()},
            item_numbers={str(k): int(v) for k, v in (data.get("item_numbers") or {}).items()},
            stop=int(data.get("stop") or 0),
            flags={str(name) for name in (data.get("flags") or ())},
            counts={str(k): int(v) for k, v in (data.get("counts") or {}).items()},
            penalties={str(k): dict(v) for k, v in (data.get("penalties") or {}).items()},
            gender=_gender(data.get("gender")),
        )


def _gender(value: Any) -> str:
    """A saved gender: "f", "m" or "" (none saved); anything else is a malformed save."""
    if value in (None, ""):
        return ""
    if value not in ("f", "m"):
        raise ValueError(f"unknown gender {value!r}")
    return str(value)


def first_difference(left: Any, right: Any, path: str = "state") -> str | None:
    """Where two JSON-able values first differ (``state.hero.stats.SKILL: 7 != 8``)."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right), key=str):
            if key not in left:
                return f"{path}.{key}: missing on the left"
            if key not in right:
                return f"{path}.{key}: missing on the right"
            found = first_difference(left[key], right[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list):
        for index, (a, b) in enumerate(zip(left, right, strict=False)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(left) != len(right):
            return f"{path}: {len(left)} entries != {len(right)} entries"
        return None
    if left != right or isinstance(left, bool) != isinstance(right, bool):
        return f"{path}: {left!r} != {right!r}"
    return None
