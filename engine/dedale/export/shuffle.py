"""``dedale export --shuffle``: renumber a book written in story order, as printed books are.

The result is a permutation of the book's paragraph numbers such that

- the pinned paragraphs keep their numbers (:mod:`dedale.export.shuffle_pins` says which);
- no link (a choice, a go-to, a test's or a fight's outcome...) leads to the next or the
  previous number — a hard constraint: broken only when the pins leave no way, and then
  named in :attr:`Shuffle.adjacent`;
- linked paragraphs are not on one page spread where avoidable — a soft constraint, on pages
  *estimated* from the text's length (:data:`CHARS_PER_PAGE`), since the true layout is only
  known once Typst has set the book.

The search is a seeded local search (swaps of two free paragraphs) with a fixed budget of
steps, so it never hangs: the same book and seed give the same map, and when the constraints
cannot all hold it returns the closest permutation it found.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from dedale import ast
from dedale.export.shuffle_pins import default_pins
from dedale.rules.random_source import RandomSource
from dedale.validator.graph import build_graph

CHARS_PER_PAGE = 6200
"""Characters of sections' text on one page of the PDF (two columns of 10 pt type on A4,
measured on the sample books): an estimate, used only to spread linked paragraphs apart."""
SECTION_OVERHEAD = 120
"""Characters a section's number and spacing take, as counted against a page."""
FIRST_PAGE = 4
"""The page of the first section when the export does not say (after the title page, the
rules and the Adventure Sheet)."""
STEPS_PER_PARAGRAPH = 400
"""The search's budget: swaps tried per free paragraph (bounded whatever the book)."""
MAX_STEPS = 400_000


@dataclass(frozen=True, slots=True)
class Shuffle:
    """A renumbering and how well it keeps the constraints (numbers are the author's)."""

    mapping: dict[int, int]
    pinned: dict[int, str]
    """The paragraphs kept in place, with why (start, victory, author, hidden...)."""
    adjacent: tuple[tuple[int, int], ...]
    """Links whose new numbers follow each other: the broken hard constraints."""
    same_spread: tuple[tuple[int, int], ...]
    """Links on one estimated page spread (avoided where the search could)."""
    links: int
    spreads: int = 1
    """How many page spreads the sections take, estimated."""


def links_of(book: object) -> list[tuple[int, int]]:
    """Every pair of distinct paragraphs one leads to the other (each pair once, sorted)."""
    paragraphs = getattr(book, "paragraphs", {}) or {}
    graph = build_graph(book)
    pairs: set[tuple[int, int]] = set()
    for node in graph.nodes.values():
        for edge in node.edges:
            target = edge.target
            if target is not None and target in paragraphs and target != edge.source:
                pairs.add((min(edge.source, target), max(edge.source, target)))
    return sorted(pairs)


def estimated_lengths(book: object) -> dict[int, int]:
    """Each paragraph's length in characters as printed, estimated from its prose and rule
    lines (the export passes the built Document's lengths instead when it has them)."""
    lengths: dict[int, int] = {}
    for number, paragraph in (getattr(book, "paragraphs", {}) or {}).items():
        total = 0
        for statement in paragraph.body:
            total += len(statement.text) if isinstance(statement, ast.Prose) else 60
        lengths[number] = total
    return lengths


def spreads(
    order: Iterable[int],
    lengths: Mapping[int, int],
    per_page: int = CHARS_PER_PAGE,
    first_page: int = FIRST_PAGE,
) -> dict[int, int]:
    """The estimated page spread of each section printed in ``order`` (spread ``k``: pages
    ``2k`` and ``2k + 1``; the first page, a recto, is alone)."""
    where: dict[int, int] = {}
    offset = 0
    for number in order:
        page = first_page + offset // max(per_page, 1)
        where[number] = page // 2
        offset += lengths.get(number, 0) + SECTION_OVERHEAD
    return where


class _Search:
    """The state of one seeded search: ``new[old]`` is the current numbering."""

    def __init__(
        self, numbers: list[int], fixed: set[int], links, lengths, per_page, seed, first_page=4
    ):
        self.numbers = numbers
        self.free = [n for n in numbers if n not in fixed]
        self.lengths = lengths
        self.per_page = per_page
        self.first_page = first_page
        self.dice = RandomSource(seed)
        self.neighbours: dict[int, list[int]] = {n: [] for n in numbers}
        for a, b in links:
            self.neighbours[a].append(b)
            self.neighbours[b].append(a)
        self.links = links
        slots = list(self.free)
        for i in range(len(slots) - 1, 0, -1):  # Fisher-Yates with the seeded dice
            j = self.dice.roll(i + 1) - 1
            slots[i], slots[j] = slots[j], slots[i]
        self.new = {n: n for n in numbers}
        self.new.update(zip(self.free, slots, strict=True))

    def pick(self) -> int:
        return self.free[self.dice.roll(len(self.free)) - 1]

    def touching(self, x: int) -> int:
        """How many of ``x``'s links land on a number next to its own."""
        here = self.new[x]
        return sum(1 for n in self.neighbours[x] if abs(self.new[n] - here) == 1)

    def swap(self, x: int, y: int) -> None:
        self.new[x], self.new[y] = self.new[y], self.new[x]

    def adjacent(self) -> list[tuple[int, int]]:
        return [(a, b) for a, b in self.links if abs(self.new[a] - self.new[b]) == 1]

    def layout(self) -> dict[int, int]:
        """The estimated spread of each paragraph (by its old number)."""
        by_new = sorted(self.numbers, key=self.new.__getitem__)
        return spreads(by_new, self.lengths, self.per_page, self.first_page)

    def same_spread(self, where: Mapping[int, int]) -> list[tuple[int, int]]:
        return [(a, b) for a, b in self.links if where[a] == where[b]]

    def separate(self, steps: int) -> None:
        """Swap free paragraphs until no link joins consecutive numbers (or out of steps).

        Swaps that make nothing worse are taken (a walk across plateaus); when a pass finds
        nothing better, a few random swaps kick the search out of its local minimum, and the
        best numbering seen is kept in the end."""
        left = steps
        best, best_new = len(self.adjacent()), dict(self.new)
        while left > 0 and best:
            bad = [x for x in self.free if self.touching(x)]
            for x in bad:
                for _ in range(16):
                    left -= 1
                    y = self.pick()
                    if x == y:
                        continue
                    before = self.touching(x) + self.touching(y)
                    self.swap(x, y)
                    after = self.touching(x) + self.touching(y)
                    if after > before:
                        self.swap(x, y)
                    elif not self.touching(x):
                        break
            now = len(self.adjacent())
            if now < best:
                best, best_new = now, dict(self.new)
            elif now:  # stuck: kick
                for _ in range(1 + len(self.free) // 10):
                    left -= 1
                    self.swap(self.pick(), self.pick())
        self.new = best_new if len(self.adjacent()) > best else self.new

    def derange(self, steps: int) -> None:
        """Move the free paragraphs left at their own numbers, by swaps that keep every link
        as far from consecutive numbers as it was (the story in its written order shows
        through a paragraph that keeps its number)."""
        left = steps
        while left > 0:
            stuck = [x for x in self.free if self.new[x] == x]
            if not stuck:
                return
            for x in stuck:
                for _ in range(8):
                    left -= 1
                    y = self.pick()
                    if x == y:
                        continue
                    before = self.touching(x) + self.touching(y)
                    self.swap(x, y)
                    if self.touching(x) + self.touching(y) > before or self.new[y] == y:
                        self.swap(x, y)
                    else:
                        break

    def spread_apart(self, rounds: int, steps: int) -> None:
        """Swap free paragraphs to take linked ones off one spread, keeping the numbers
        apart; the spread of each number is re-estimated after every round."""
        for _ in range(rounds):
            where = self.layout()
            slot_spread = {self.new[n]: where[n] for n in self.numbers}
            crowded = [x for x in self.free if self._crowding(x, slot_spread) > 0]
            if not crowded:
                return
            for _ in range(steps):
                x = crowded[self.dice.roll(len(crowded)) - 1]
                y = self.pick()
                if x == y:
                    continue
                before = (self.touching(x) + self.touching(y), self._pair(x, y, slot_spread))
                self.swap(x, y)
                after = (self.touching(x) + self.touching(y), self._pair(x, y, slot_spread))
                worse = after[0] > before[0] or (after[0] == before[0] and after[1] >= before[1])
                if worse or self.new[x] == x or self.new[y] == y:
                    self.swap(x, y)

    def _crowding(self, x: int, slot_spread: Mapping[int, int]) -> int:
        mine = slot_spread[self.new[x]]
        return sum(1 for n in self.neighbours[x] if slot_spread[self.new[n]] == mine)

    def _pair(self, x: int, y: int, slot_spread: Mapping[int, int]) -> int:
        return self._crowding(x, slot_spread) + self._crowding(y, slot_spread)


def plan(
    book: object,
    seed: int,
    pinned: Iterable[int] = (),
    *,
    lengths: Mapping[int, int] | None = None,
    per_page: int = CHARS_PER_PAGE,
    first_page: int = FIRST_PAGE,
) -> Shuffle:
    """The shuffle of ``book`` for ``seed``, keeping ``pinned`` and the book's own pins;
    ``lengths``: each paragraph's printed length (default: estimated from its text),
    ``first_page``: the page the first section is printed on."""
    numbers = sorted(getattr(book, "paragraphs", {}) or {})
    pins = default_pins(book)
    for number in pinned:
        if number in pins or number not in numbers:
            continue
        pins[number] = "author"
    links = links_of(book)
    lengths = lengths if lengths is not None else estimated_lengths(book)
    search = _Search(numbers, set(pins), links, lengths, per_page, seed, first_page)
    budget = min(MAX_STEPS, STEPS_PER_PARAGRAPH * max(len(search.free), 1))
    if len(search.free) > 1:
        search.separate(budget)
        search.derange(budget // 8)
        search.spread_apart(rounds=4, steps=budget // 8)
        search.separate(budget // 4)
    where = search.layout()
    return Shuffle(
        mapping=dict(search.new),
        pinned=dict(sorted(pins.items())),
        adjacent=tuple(search.adjacent()),
        same_spread=tuple(search.same_spread(where)),
        links=len(links),
        spreads=len(set(where.values())),
    )


def renumber(book: object, seed: int, pinned: Iterable[int] = ()) -> dict[int, int]:
    """The shuffle's map ``{old: new}``, a permutation of the book's paragraph numbers."""
    return plan(book, seed, pinned).mapping
