"""Generate a synthetic book of N paragraphs shaped like real ones (for benchmarks).

Each paragraph has about 80 words of prose and 2-3 choices; one paragraph in five holds a
fight, one in eight a test, one in six a conditional choice. Deterministic for a given N
and seed (it uses its own random.Random instance, never the global one).

``--items K --codewords C`` add K items and C codewords of their own, each given (set) in
one paragraph and tested a few paragraphs later by a conditional choice, as real books do
(the state-aware checks' scale benchmark); without them the book is the same as before.

    python tools/bench/gen_book.py 1000 /tmp/book1000
    python tools/bench/gen_book.py 400 /tmp/book400s --items 60 --codewords 20
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

WORDS = (
    "the old darkened stone doorway corridor torchlight shadows freezing wind silence "
    "you hear notice feel walking slowly carefully towards into beneath above beside "
    "ancient forgotten narrow enormous crumbling wall flagstones ceiling water drips "
    "echoing distant whispering voices smell smoke iron rusted blood golden glint light "
    "flickers behind faraway stepping forward backwards stairway leading downwards "
    "upwards chamber hallway cellar crypt watchtower gatehouse bridge river forest "
    "pathway road marshland lantern creature footsteps somewhere beyond carved statues"
).split()
ENEMIES = ("GOBLIN", "ORC", "CAVE TROLL", "GIANT RAT", "SKELETON", "BANDIT", "WOLF")
LUCK_RULESETS = ("df-classic", "df24", "df48.5")
ITEMS = ("Rope", "Lantern", "Iron Key", "Silver Dagger", "Healing Potion")


def _prose(rng: random.Random, words: int = 80) -> str:
    out = [rng.choice(WORDS) for _ in range(words)]
    out[0] = out[0].capitalize()
    lines, line = [], []
    for word in out:
        line.append(word)
        if len(line) == 14:
            lines.append(" ".join(line))
            line = []
    if line:
        lines.append(" ".join(line))
    return "\n".join(lines) + "."


EXTRA_ITEMS = ("Copper Ring", "Blue Candle", "Bone Whistle", "Map", "Tinderbox", "Amulet")


@dataclass(frozen=True)
class Shape:
    """What a paragraph holds, by its number (the defaults give the original books):
    ``items``/``codewords`` > 0 hand them out at *gates* (every ``gate_every`` paragraphs,
    which every path crosses: the choices before a gate do not jump past it) and make the
    conditional choices ask for them."""

    fight_every: int = 5
    test_every: int = 8
    take_every: int = 7
    items: int = 0
    codewords: int = 0
    gate_every: int = 0

    def item_names(self) -> tuple[str, ...]:
        return (ITEMS + EXTRA_ITEMS)[: self.items] if self.items else ITEMS


def extras_plan(total: int, items: int, codewords: int, seed: int) -> dict[int, list[str]]:
    """Lines added to paragraphs for ``items`` items and ``codewords`` codewords: each is
    given in a paragraph and tested by a conditional choice 3-40 paragraphs later."""
    rng = random.Random(seed * 7919 + 17)
    plan: dict[int, list[str]] = {}
    atoms = [("take", f"Relic {k + 1}", f"if Relic {k + 1}") for k in range(items)]
    atoms += [
        ("set codeword", f"SIGIL{k + 1}", f"if codeword SIGIL{k + 1}") for k in range(codewords)
    ]
    for verb, name, test in atoms:
        given = rng.randint(2, max(2, total - 45))
        tested = min(total - 1, given + rng.randint(3, 40))
        while tested % 5 == 0 or tested % 8 == 0:  # a paragraph of choices
            tested -= 1
        plan.setdefault(given, []).append(f"> {verb} {name}")
        plan.setdefault(tested, []).append(f"-> {min(total, tested + 1)} ({test}) Use it")
    return plan


def enemy_line(ruleset: str, enemy: str, skill: int, stamina: int) -> str:
    """The enemy of a generated fight in ``ruleset``'s stats, from the same two draws."""
    if ruleset == "d20":
        return f"> enemy {enemy} AC {skill + 3} attack +{skill - 4} damage 1d6 HP {stamina}"
    if ruleset == "reliques":
        level = 1 + skill // 4
        return f"> enemy {enemy} STRENGTH {level} AGILITY {level} PERCEPTION 2 CONSTITUTION 2"
    return f"> enemy {enemy} SKILL {skill} STAMINA {stamina}"


def paragraph(
    number: int,
    total: int,
    rng: random.Random,
    extra: list[str] | None = None,
    ruleset: str = "df-classic",
    shape: Shape | None = None,
) -> str:
    """The text of one synthetic paragraph (``extra``: gains and gated choices to add)."""
    shape = shape or Shape()
    parts = [f"§ {number}", _prose(rng)]
    gated = [line for line in extra or () if line.startswith("->")]
    parts += [line for line in extra or () if not line.startswith("->")]
    cap = total
    if shape.gate_every:
        cap = min(total, (number // shape.gate_every + 1) * shape.gate_every)
    targets = [min(cap, number + k) for k in (1, 2, 3)]
    if number == total:
        parts.append("> victory")
        return "\n".join(parts)
    gate = number // shape.gate_every if shape.gate_every and number % shape.gate_every == 0 else 0
    if gate:
        names = shape.item_names()
        if shape.items and gate <= len(names):
            parts.append(f"> take {names[gate - 1]}")
        if gate <= shape.codewords:
            parts.append(f"> set codeword WORD{gate}")
    if shape.fight_every and number % shape.fight_every == 0:
        enemy = rng.choice(ENEMIES)
        skill, stamina = rng.randint(5, 10), rng.randint(4, 12)
        parts += [
            "> fight",
            enemy_line(ruleset, enemy, skill, stamina),
            f"> win -> {targets[0]}",
        ]
        return "\n".join(parts)
    if shape.test_every and number % shape.test_every == 0 and ruleset in LUCK_RULESETS:
        parts += ["> test your luck", f"> lucky -> {targets[0]}", f"> unlucky -> {targets[1]}"]
        return "\n".join(parts)
    if (
        shape.test_every and number % shape.test_every == 0
    ):  # no Luck in this ruleset: a roll of the dice instead
        parts += ["> roll 1d6", f"> 1-3 -> {targets[0]}", f"> 4-6 -> {targets[1]}"]
        return "\n".join(parts)
    if shape.take_every and number % shape.take_every == 0:
        parts.append(f"> take {rng.choice(ITEMS)}")
    choices = rng.randint(2, 3)
    for k in range(choices):
        text = " ".join(rng.choice(WORDS) for _ in range(5)).capitalize()
        parts.append(f"-> {targets[k]} {text}")
    if number % 6 == 0:
        parts.append(f"-> {targets[0]} (if {rng.choice(shape.item_names())}) Use what you carry")
    if shape.codewords and number % 9 == 0:
        word = 1 + number % shape.codewords
        parts.append(f"-> {targets[-1]} (if codeword WORD{word}) Say the word you were told")
    return "\n".join(parts + gated)


def write_book(
    folder: Path,
    total: int,
    seed: int = 1,
    per_file: int = 400,
    items: int = 0,
    codewords: int = 0,
    ruleset: str = "df-classic",
    shape: Shape | None = None,
) -> Path:
    """Write book.yaml and paragraph files (``per_file`` paragraphs each) into ``folder``."""
    rng = random.Random(seed)
    plan = extras_plan(total, items, codewords, seed) if items or codewords else {}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "book.yaml").write_text(
        f"title: Synthetic {total}\nauthor: gen_book\nlanguage: en\nruleset: {ruleset}\nstart: 1\n",
        encoding="utf-8",
    )
    for old in folder.glob("*.dd"):
        old.unlink()
    for first in range(1, total + 1, per_file):
        last = min(total, first + per_file - 1)
        text = "\n\n".join(
            paragraph(n, total, rng, plan.get(n), ruleset, shape) for n in range(first, last + 1)
        )
        (folder / f"part{first:06d}.dd").write_text(text + "\n", encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paragraphs", type=int)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--items", type=int, default=0, help="items given, then tested")
    parser.add_argument("--codewords", type=int, default=0, help="codewords set, then tested")
    parser.add_argument("--ruleset", default="df-classic", help="the fights' ruleset")
    parser.add_argument(
        "--fight-every", type=int, default=5, help="a fight every N paragraphs (0: none)"
    )
    parser.add_argument("--test-every", type=int, default=8, help="a Luck test every N")
    parser.add_argument(
        "--take-every", type=int, default=7, help="a random item taken every N (0: none)"
    )
    parser.add_argument("--gate-items", type=int, default=0, help="N items handed out at gates")
    parser.add_argument("--gate-codewords", type=int, default=0, help="N codewords set at gates")
    parser.add_argument("--gate-every", type=int, default=0, help="a gate every N paragraphs")
    args = parser.parse_args()
    shape = Shape(
        args.fight_every, args.test_every, args.take_every, args.gate_items, args.gate_codewords,
        args.gate_every,
    )  # fmt: skip
    write_book(
        args.folder,
        args.paragraphs,
        args.seed,
        items=args.items,
        codewords=args.codewords,
        ruleset=args.ruleset,
        shape=shape,
    )
    size = sum(p.stat().st_size for p in args.folder.iterdir())
    print(f"{args.folder}: {args.paragraphs} paragraphs, {size / 1000:.0f} KB")


if __name__ == "__main__":
    main()
