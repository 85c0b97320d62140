"""The origins of the solver's graph nodes: the hero's creation, and a snapshot before a
paragraph."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Root:
    """The root of a solve: the hero's creation with these values (and class)."""

    hero: tuple[int, ...]
    class_name: str | None


@dataclass(frozen=True, slots=True)
class Entry:
    """A graph node: the canonical snapshot (JSON text) just before entering ``target``."""

    state: str
    target: int
