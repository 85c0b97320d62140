"""The fast paths build exactly what the grammar builds, for every line they accept."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from dedale.errors import BookLoadError
from dedale.language.fastpath import fast_line
from dedale.language.parser import lark_line_items, split_lines

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools" / "bench"))

from gen_book import paragraph  # noqa: E402

EDGE_LINES = [
    "§ 12", "# 12 (cave)", "§ 3 navette xil", "  § 4   spaced   ", "§12", "# 1990 was a year",
    "-> 12", "-> 12 Open", "->12 text", "  -> 7   Go on   ", "-> 12 (if Key) Open", "-> 1x2",
    "> lucky -> 30", "> UNLUCKY->31", "> réussite critique -> 4", "> échec -> 5",
    "> win -> 50", "> victoire -> 50", "> lose -> 51", "> défaite -> 51", "> lost -> 2",
    "> lucky -> 30 now", "> success margin >= 3 -> 11",
    "> enemy GOBLIN SKILL 7 STAMINA 6", "> ennemi CHEF DES PILLARDS HABILETÉ 8 ENDURANCE 8",
    "> enemy ORC SKILL seven STAMINA 6", "> enemy A B 1 C D 2", "> enemy damage 3",
    "> enemy damage GOBLIN SKILL 7 STAMINA 6", "> enemy Troll SKILL 9 STAMINA 12 (immune)",
    "> enemy Bandit AC 13 attack +3 damage 1d8", "> enemy X SKILL 7d STAMINA 6",
    "> enemy GOBLIN: SKILL 7 STAMINA 6", "> enemy GOBLIN SKILL 7 STAMINA 6 extra",
    "> fight", "> COMBAT", "> combat ensemble", "> fight GOBLIN SKILL 7 STAMINA 6",
    "> test your luck", "> tentez votre Habileté", "> test your luck -2", "> testez votre FOR",
    "> take Rope", "> prenez Épée Brisée  ", "> take 2 Torches", "> take Sword (weapon)",
    "> take", "> prenez BFG 9000",
    "> victory", "> mort", "  > Victoire  ", "> victory now", "> death -> 3", "> DEATH",
    "-> 7 (if Rope) Use what you carry", "-> 7 (si Carte magnétique) Glisser", "-> 7 (if Rope)",
    "-> 7 (if Rope)   ", "-> 7 (if Rope)Use", "-> 7 ( if  Rope ) Use  ", "-> 7 (SI CORDE) X",
    "-> 7 (if not Rope) x", "-> 7 (si pas Corde) x", "-> 7 (si objet Corde) x",
    "-> 7 (si classe Mercenaire) x", "-> 7 (if Rope or Lantern) x", "-> 7 (si Corde et Clé) x",
    "-> 7 (if 2 Torches) x", "-> 7 (if d6) x", "-> 7 (si initiale X) x", "-> 7 (if SKILL >= 10) x",
    "-> 7 (if Rope, disabled) x", "-> 7 (if Rope) (pay 2 gold) x", "-> 7 (si mot-code X) x",
    "-> 7 (if visited 12) x", "-> 7 (si vous avez Corde) x", "-> 7 (if All Seeing Eye) x",
    "-> 7 (if Rope visited) x", "-> 7 (si la corde) x", "-> 7 (if Rope's end) x",
    "-> 7 (if Half-Moon) x", "-> 7 (if Rope 2) x", "-> 7 (if Rope) -> x", "-> 7 (if ROLL) x",
    "-> 7 (if Rope initial) x", "-> 7 (if Statue of Zeus) x (y)", "-> 007 (if Key ) Open",
    "-> 7 (si monde Mars visité) x", "-> 7 (si statut Empoisonné) x", "-> 7 (if paragraph > 3) x",
    "-> 7 (if Rope Lantern) x", "-> 7 (if Rope;) x", "-> 7 (if) x", "-> 7 (if Rope",
    "> set codeword SIGIL1", "> notez mot-code ARGENT", "> note codeword Bleu Ciel  ",
    "> clear codeword SIGIL1", "> effacez mot-code Loup", "> rayez mot code LOUP",
    "> set code word X", "> SET CODEWORD X", "> fixez mot-code Été", "> set codeword",
    "> set codeword X and Y", "> set codeword X visited", "> set codeword 12", "> note Loup",
    "> set codeword X -> 3", "> set codeword X (if Y)", "> clear codeword X; set codeword Y",
    "> note codeword X 2", "> mettez mot-code Aube", "> set SKILL to 8", "> set codeword X's",
    "-> 7 (if codeword SIGIL1) Use it", "-> 7 (si mot-code ARGENT) Entrer", "-> 7 (if codeword X)",
    "-> 7 (if code word Bleu Ciel) x", "-> 7 (if codeword X and Y) x", "-> 7 (if codeword) x",
    "-> 7 (if codeword X or Rope) x", "-> 7 (if not codeword X) x", "-> 7 (IF CODEWORD X) y",
    "-> 7 (if codeword 3) x", "-> 7 (if codeword X visited) x", "-> 7 (si mot code Été) x",
]  # fmt: skip


def _lines() -> list[str]:
    cases = (ROOT / "tests" / "language" / "cases").rglob("*.dd")
    texts = [p.read_bytes().decode("utf-8", "replace") for p in cases]
    texts += [p.read_text("utf-8") for p in (ROOT / "books").rglob("*.dd")]
    texts += [paragraph(n, 200, __import__("random").Random(n)) for n in range(1, 120)]
    lines = set(EDGE_LINES)
    for text in texts:
        rules, _prose = split_lines(text)
        lines.update(line for _, line in rules)
    return sorted(lines)


LINES = _lines()


def test_fast_path_matches_the_grammar():
    checked = 0
    for line in LINES:
        fast = fast_line(line, 7, "f.dd")
        if fast is None:
            continue
        try:
            expected = lark_line_items(line, 7, "f.dd")
        except BookLoadError as error:
            pytest.fail(f"fast path accepted {line!r}, the grammar rejects it: {error.render()}")
        assert [fast] == expected, line
        checked += 1
    assert checked > 100


def test_fast_paths_cover_the_common_lines():
    covered = [line for line in LINES if fast_line(line, 1, "f") is not None]
    assert len(covered) > len(LINES) / 2


@pytest.mark.parametrize(
    ("line", "fast"),
    [
        ("> victory", True),
        ("> mort", True),
        ("-> 7 (if Rope) Use what you carry", True),
        ("-> 7 (si Carte magnétique) Glisser la carte", True),
        ("-> 7 (if not Rope) x", False),  # a keyword where the name would be: Lark
        ("-> 7 (si objet Corde) x", False),
        ("-> 7 (if Rope or Lantern) x", False),
        ("-> 7 (if Rope, disabled) x", False),  # another option: Lark
        ("> victory now", False),
        ("> set codeword SIGIL1", True),
        ("> notez mot-code ARGENT", True),
        ("> clear codeword SIGIL1", True),
        ("> set codeword X and Y", False),  # not one name: Lark
        ("-> 7 (if codeword SIGIL1) Use it", True),
        ("-> 7 (si mot-code ARGENT) Entrer", True),
        ("-> 7 (if codeword X or Rope) x", False),
        ("-> 7 (if not codeword X) x", False),
    ],
)
def test_endings_and_choices_on_one_item_take_the_fast_path(line, fast):
    assert (fast_line(line, 7, "f.dd") is not None) is fast
