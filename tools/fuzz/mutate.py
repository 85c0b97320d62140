"""Mutation-based books: a sample book of books/ with a few careless or hostile edits.

The edits are those of a careless author or a damaged file: byte flips, raw byte
insertions, line deletions, duplications and swaps, number swaps (neighbours, 0, negative,
huge), keyword swaps between French and English (and for a wrong keyword of the same
family), lines spliced from another book, truncation. Files are edited as text decoded
with ``surrogateescape``, so any byte survives the round trip.
"""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

from tools.fuzz.inputs import FuzzInput

BOOKS = Path(__file__).resolve().parents[2] / "books"

# French/English keyword pairs of the book language (and of book.yaml), swapped both ways.
KEYWORD_PAIRS = (
    ("go to", "allez au"), ("turn to", "rendez-vous au"), ("gain", "gagnez"),
    ("lose", "perdez"), ("take", "prenez"), ("drop", "abandonnez"), ("set", "fixez"),
    ("restore", "restaurez"), ("test your luck", "tentez votre chance"),
    ("test your skill", "tentez votre habileté"), ("lucky", "chanceux"),
    ("unlucky", "malchanceux"), ("success", "réussite"), ("failure", "échec"),
    ("fight", "combat"), ("enemy", "ennemi"), ("win", "victoire"), ("victory", "victoire"),
    ("death", "mort"), ("if", "si"), ("otherwise", "sinon"), ("codeword", "mot-code"),
    ("set codeword", "notez mot-code"), ("SKILL", "HABILETÉ"), ("STAMINA", "ENDURANCE"),
    ("LUCK", "CHANCE"), ("gold", "or"), ("meals", "repas"), ("escape", "fuite"),
    ("roll", "lancez"), ("world", "monde"), ("after", "après"), ("assaults", "assauts"),
    ("one after another", "l'un après l'autre"), ("meals allowed", "repas autorisé"),
    ("not won after", "pas gagné après"), ("weapon", "arme"), ("attack", "attaque"),
    ("language: en", "language: fr"), ("title:", "titre:"), ("ruleset:", "règles:"),
    ("df-classic", "reliques"), ("df24", "d20"), ("start:", "début:"), ("->", ">"),
    ("§", "#"), ("->", "→"),
)  # fmt: skip
RAW_BYTES = (b"\x00", b"\xff", b"\xc3", b"\xe2\x80", b"\r", b"\t", b"\xef\xbb\xbf", b"\x1a")
NUMBER = re.compile(r"\d+")
OPERATIONS = (
    "flip", "insert", "delete_line", "dup_line", "swap_lines", "number", "keyword", "splice",
    "truncate", "dup_block",
)  # fmt: skip


@cache
def sample_books() -> dict[str, dict[str, bytes]]:
    """Every sample book of books/: name -> {file name: bytes} (book.yaml and *.dd)."""
    books: dict[str, dict[str, bytes]] = {}
    for folder in sorted(BOOKS.iterdir()):
        if (folder / "book.yaml").is_file():
            books[folder.name] = {
                path.name: path.read_bytes()
                for path in sorted(folder.iterdir())
                if path.suffix in (".dd", ".yaml")
            }
    return books


def mutated_book(
    rnd: random.Random, book: str | None = None, edits: int | None = None
) -> FuzzInput:
    """A sample book (``book`` or one drawn at random) with 1-4 random edits."""
    books = sample_books()
    name = book if book is not None else rnd.choice(sorted(books))
    files = dict(books[name])
    done = []
    for _ in range(edits if edits is not None else rnd.randint(1, 4)):
        # book.yaml now and then, a paragraph file most of the time
        names = sorted(files)
        target = "book.yaml" if rnd.random() < 0.15 else rnd.choice(names)
        operation = rnd.choice(OPERATIONS)
        files[target] = mutate(rnd, files[target], operation)
        done.append(f"{operation}@{target}")
    return FuzzInput(files, f"mutate:{name}:{','.join(done)}", seed=rnd.randrange(1000))


def mutate(rnd: random.Random, data: bytes, operation: str) -> bytes:
    """``data`` after one edit of kind ``operation``."""
    if operation == "flip" and data:
        at = rnd.randrange(len(data))
        return data[:at] + bytes([data[at] ^ (1 << rnd.randrange(8))]) + data[at + 1 :]
    if operation == "insert":
        at = rnd.randrange(len(data) + 1)
        return data[:at] + rnd.choice(RAW_BYTES) + data[at:]
    if operation == "truncate":
        return data[: rnd.randrange(len(data) + 1)]
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    if operation == "delete_line" and lines:
        del lines[rnd.randrange(len(lines))]
    elif operation == "dup_line" and lines:
        at = rnd.randrange(len(lines))
        lines.insert(at, lines[at])
    elif operation == "swap_lines" and len(lines) > 1:
        i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif operation == "dup_block" and lines:
        at = rnd.randrange(len(lines))
        block = lines[at : at + rnd.randint(2, 12)]
        lines[at:at] = block
    elif operation == "splice":
        other = rnd.choice(sorted(sample_books().values(), key=lambda b: sorted(b)))
        donor = rnd.choice(sorted(other))
        donor_lines = other[donor].decode("utf-8", "surrogateescape").split("\n")
        lines.insert(rnd.randrange(len(lines) + 1), rnd.choice(donor_lines))
    elif operation == "number":
        return _swap_number(rnd, text).encode("utf-8", "surrogateescape")
    elif operation == "keyword":
        return _swap_keyword(rnd, text).encode("utf-8", "surrogateescape")
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def _swap_number(rnd: random.Random, text: str) -> str:
    found = list(NUMBER.finditer(text))
    if not found:
        return text
    match = rnd.choice(found)
    value = int(match.group())
    replacement = rnd.choice(
        (
            str(value + 1), str(max(0, value - 1)), "0", f"-{value}", str(value * 1000),
            str(rnd.randint(1, 400)), "9" * rnd.choice((10, 20, 40, 4300, 5000)),
        )
    )  # fmt: skip
    return text[: match.start()] + replacement + text[match.end() :]


def _swap_keyword(rnd: random.Random, text: str) -> str:
    english, french = rnd.choice(KEYWORD_PAIRS)
    source, replacement = (english, french) if rnd.random() < 0.5 else (french, english)
    spots = [m.start() for m in re.finditer(re.escape(source), text)]
    if not spots:
        spots = [m.start() for m in re.finditer(re.escape(replacement), text)]
        source, replacement = replacement, source
    if not spots:
        return text
    if rnd.random() < 0.2:  # every occurrence: a book "translated" half-way
        return text.replace(source, replacement)
    at = rnd.choice(spots)
    return text[:at] + replacement + text[at + len(source) :]
