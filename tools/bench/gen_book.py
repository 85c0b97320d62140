"""Generate a synthetic book of N paragraphs shaped like real ones (for benchmarks).

Each paragraph has about 80 words of prose and 2-3 choices; one paragraph in five holds a
fight, one in eight a test, one in six a conditional choice. Deterministic for a given N
and seed (it uses its own random.Random instance, never the global one).

    python tools/bench/gen_book.py 1000 /tmp/book1000
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


def paragraph(number: int, total: int, rng: random.Random, shape: Shape | None = None) -> str:
    """The text of one synthetic paragraph."""
    shape = shape or Shape()
    parts = [f"§ {number}", _prose(rng)]
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
        parts += [
            "> fight",
            f"> enemy {enemy} SKILL {rng.randint(5, 10)} STAMINA {rng.randint(4, 12)}",
            f"> win -> {targets[0]}",
        ]
        return "\n".join(parts)
    if shape.test_every and number % shape.test_every == 0:
        parts += ["> test your luck", f"> lucky -> {targets[0]}", f"> unlucky -> {targets[1]}"]
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
    return "\n".join(parts)


def write_book(
    folder: Path, total: int, seed: int = 1, per_file: int = 400, shape: Shape | None = None
) -> Path:
    """Write book.yaml and paragraph files (``per_file`` paragraphs each) into ``folder``."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "book.yaml").write_text(
        f"title: Synthetic {total}\nauthor: gen_book\nlanguage: en\nruleset: df-classic\n"
        "start: 1\n",
        encoding="utf-8",
    )
    for old in folder.glob("*.dd"):
        old.unlink()
    for first in range(1, total + 1, per_file):
        last = min(total, first + per_file - 1)
        text = "\n\n".join(paragraph(n, total, rng, shape) for n in range(first, last + 1))
        (folder / f"part{first:06d}.dd").write_text(text + "\n", encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paragraphs", type=int)
    parser.add_argument("folder", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--fight-every", type=int, default=5, help="a fight every N paragraphs (0: none)"
    )
    parser.add_argument("--test-every", type=int, default=8, help="a Luck test every N")
    parser.add_argument(
        "--take-every", type=int, default=7, help="a random item taken every N (0: none)"
    )
    parser.add_argument("--items", type=int, default=0, help="N items handed out at gates")
    parser.add_argument("--codewords", type=int, default=0, help="N codewords set at gates")
    parser.add_argument("--gate-every", type=int, default=0, help="a gate every N paragraphs")
    args = parser.parse_args()
    shape = Shape(
        args.fight_every, args.test_every, args.take_every, args.items, args.codewords,
        args.gate_every,
    )  # fmt: skip
    write_book(args.folder, args.paragraphs, args.seed, shape=shape)
    size = sum(p.stat().st_size for p in args.folder.iterdir())
    print(f"{args.folder}: {args.paragraphs} paragraphs, {size / 1000:.0f} KB")


if __name__ == "__main__":
    main()
