"""Several potions of different effects held at once, on the path of fights.

A book may give a Healing Draught (``when STAMINA falls to 4: gain 6 STAMINA``) and Phoenix
Tears (``when STAMINA falls to 0: restore STAMINA``): two potions whose effects differ. The
reader never chooses which to drink: the interpreter (:func:`dedale.game.triggers._due`)
makes the first held item, in the order the hero first took them, whose threshold STAMINA
is at or below act, one piece, and looks again, until none is due. At STAMINA 0 holding
both, the one taken first acts: the Draught (0 + 6 = 6, above both thresholds: the Tears
are kept) or the Tears (back to the initial STAMINA: the Draught is kept).

:class:`Potions` follows them exactly as one potion whose doses are a code: the count of
each kind is a digit in base ``MAX_DOSES + 1`` (the first kind the units). Drinking any
kind lowers the code, so every DP that orders its states by the doses left (more first)
keeps its order; its :meth:`Potions.settle` is the interpreter's loop over the kinds in
their order. The chain, the fight DPs with the potion (:mod:`.fight_path_potion_fight`,
:mod:`.fight_path_group_potion`) and the meal policy then weigh the joint distribution of
(STAMINA, LUCK, meals, doses of each kind) as they do one potion's.

The order of the kinds is the order the path first gives their items (book.yaml's items
first): :meth:`Potions.in_order`. When that order is not one kind's items then another's
(a Draught, then Tears, then a Salve of the Draught's effect: the interpreter would check
the Tears before the Salve), the figure is ``≈`` with its reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from dedale.validator.fight_path_potion import MAX_DOSES, Potion

BASE = MAX_DOSES + 1  # one digit of the doses' code per kind


@dataclass(frozen=True, slots=True)
class Potions:
    """The book's potions of different effects, in the order the interpreter makes them
    act (``kinds``), with the folded item names of each kind (``names``)."""

    kinds: tuple[Potion, ...]
    names: tuple[frozenset[str], ...]

    @property
    def at(self) -> int:
        """The highest threshold: at or below it, some kind may act."""
        return max(kind.at for kind in self.kinds)

    def counts(self, code: int) -> tuple[int, ...]:
        """The doses of each kind that ``code`` holds."""
        return tuple(code // BASE**i % BASE for i in range(len(self.kinds)))

    def code(self, counts) -> int:
        return sum(max(0, min(c, MAX_DOSES)) * BASE**i for i, c in enumerate(counts))

    def kind_of(self, item: str) -> int | None:
        return next((i for i, names in enumerate(self.names) if item in names), None)

    def add(self, code: int, item: str, count: int) -> int:
        """The code after ``count`` doses of ``item`` are taken (< 0: lost), each kind
        between 0 and ``MAX_DOSES``."""
        i = self.kind_of(item)
        if i is None:
            return code
        counts = list(self.counts(code))
        counts[i] += count
        return self.code(counts)

    def over(self, code: int, item: str, count: int) -> bool:
        """Whether taking ``count`` of ``item`` passes the doses followed of its kind."""
        i = self.kind_of(item)
        return i is not None and self.counts(code)[i] + count > MAX_DOSES

    def settle(self, top: int, h: int, code: int) -> list[tuple[tuple[int, int], float]]:
        """(STAMINA, code) after the potions act from ``h`` (the interpreter's loop: the
        first kind held whose threshold is reached acts, a dose, then again)."""
        out: dict[tuple[int, int], float] = {}
        stack = [(h, code, 1.0)]
        while stack:  # each round uses a dose: at most MAX_DOSES * kinds rounds deep
            h, code, p = stack.pop()
            counts = self.counts(code)
            due = next((i for i, kind in enumerate(self.kinds)
                        if counts[i] > 0 and h <= kind.at), None)  # fmt: skip
            if due is None:
                out[(h, code)] = out.get((h, code), 0.0) + p
                continue
            for new, q in self.kinds[due].drink(h, top):
                stack.append((new, code - BASE**due, p * q))
        return list(out.items())

    def highest(self, h: int, top: int, code: int) -> int:
        """The highest STAMINA the doses held can bring a hero at ``h`` to."""
        counts = self.counts(code)
        pairs = zip(self.kinds, counts, strict=True)
        found = [kind.highest(h, top, c) for kind, c in pairs if c > 0]
        return max([h, top, *found])

    def in_order(self, first_taken: list[str]) -> tuple[Potions, bool]:
        """The kinds in the order ``first_taken`` (folded item names, in the order the path
        first gives them) makes them act, and whether that order is one kind's items then
        another's (else the interpreter's order is item by item: not followed)."""
        seen: list[int] = []
        grouped = True
        for item in first_taken:
            i = self.kind_of(item)
            if i is None:
                continue
            if i not in seen:
                seen.append(i)
            elif seen[-1] != i:
                grouped = False
        order = seen + [i for i in range(len(self.kinds)) if i not in seen]
        kinds = tuple(self.kinds[i] for i in order)
        return Potions(kinds, tuple(self.names[i] for i in order)), grouped
