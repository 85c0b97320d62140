"""The printed sentences of every construct, the rules written from ruleset data (a new
ruleset's rules need no Python), and the Adventure Sheet, over the sample books."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.export import document as doc
from dedale.export.build import build_document
from dedale.export.html import render_html
from dedale.language import load_book

ROOT = Path(__file__).resolve().parents[2]
EXTRA = ROOT / "tests" / "books_extra"
BOOKS = sorted(
    path.parent
    for pattern in ("books/*/book.yaml", "tests/books_extra/*/book.yaml")
    for path in ROOT.glob(pattern)
)
MARKERS = ("\ue000", "\ue001", "\ue002", "\ue003", "\ue004")


def text(inlines) -> str:
    return "".join(
        piece if isinstance(piece, str) else str(getattr(piece, "number", None) or piece.text)
        for piece in inlines
    )


def sentences(document: doc.Document, number: int) -> list[str]:
    """Every printed line of one section (rules, choices, endings), as plain text."""
    section = next(s for s in document.sections if s.number == number)
    out = []
    for block in section.blocks:
        if isinstance(block, doc.Choices):
            out.extend(text(choice.inlines) for choice in block.items)
        elif isinstance(block, doc.Rule | doc.Ending):
            out.append(text(block.inlines))
    return out


def refs(document: doc.Document):
    for section in document.sections:
        for block in section.blocks:
            pieces = getattr(block, "inlines", ())
            if isinstance(block, doc.Choices):
                pieces = tuple(p for c in block.items for p in c.inlines)
            yield from (p for p in pieces if isinstance(p, doc.Ref))


@pytest.mark.parametrize("folder", BOOKS, ids=lambda p: p.name)
def test_every_sample_book_prints(folder: Path) -> None:
    book = load_book(folder)
    document = build_document(book)
    assert [s.number for s in document.sections] == sorted(book.paragraphs)
    assert all(ref.number in book.paragraphs for ref in refs(document))
    page = render_html(document)
    assert not any(mark in page for mark in MARKERS)
    assert document.front and document.sheet is not None


@pytest.fixture(scope="module")
def fights() -> doc.Document:
    return build_document(load_book(EXTRA / "fights"))


def test_rules_under_an_enemy(fights: doc.Document) -> None:
    assert sentences(fights, 5) == [
        "Each wound PIT VIPER inflicts costs you 3 STAMINA points.",
        "Each time PIT VIPER wins an assault, gain 1 Bites.",
        "As soon as your Bites is at least 2, stop the fight and turn to 12.",
        "If you win, turn to 6.",
    ]
    assert (
        "Each time ORC CAPTAIN wounds you, roll one die: on a 6, the wound costs you 1 "
        "point if you have the Shield." in sentences(fights, 8)
    )
    assert sentences(fights, 9)[0] == "If you have not won after 3 assaults, turn to 10."


def test_tests_as_printed_books_write_them() -> None:
    document = build_document(load_book(EXTRA / "tests"))
    assert sentences(document, 3) == [
        "You may test your Skill (add 1 to the dice if you have the Dagger): if you would "
        "rather not, turn to 4; if you succeed, turn to 5; if you fail, lose 2 STAMINA points "
        "and turn to 5."
    ]
    assert sentences(document, 6) == [
        "Roll 2 dice for yourself and 2 dice for your opponent (add 1 to the dice if you have "
        "the Dagger): if your total is higher, turn to 7; if your total is lower, turn to 8; "
        "if the totals are equal, turn to 6."
    ]
    french = build_document(load_book(EXTRA / "tests_fr"))
    assert sentences(french, 5) == [
        "Tentez votre Habileté\u00a0: si vous échouez, perdez 2 points d'ENDURANCE\u202f; si "
        "vous réussissez, rendez-vous au 6\u202f; recommencez jusqu'à ce que vous réussissiez."
    ]


def test_amateur_constructs() -> None:
    document = build_document(load_book(EXTRA / "amateur"))
    first = sentences(document, 1)
    assert first[0] == "Note the number of this paragraph (1) as camp."
    assert "Step back from the door: turn to the paragraph you came from." in sentences(document, 3)
    shop = sentences(document, 9)
    assert "Eat a meal now; if you have none left, lose 3 STAMINA points." in shop
    assert (
        "You may buy: Healing Herb for 2 Gold pieces; you may sell: Brass Key for 5 Gold pieces."
        in shop
    )
    assert "You are Poisoned: at each new paragraph, lose 1 STAMINA point." in sentences(
        document, 5
    )


def test_a_group_is_boxed_by_rank() -> None:
    document = build_document(load_book(EXTRA / "groups" / "fr"))
    box = next(b for b in document.sections[0].blocks if isinstance(b, doc.EnemyBox))
    assert [enemy.name for enemy in box.enemies] == ["Premier RAT", "Deuxième RAT", "Troisième RAT"]
    assert box.note == "Combattez-les l'un après l'autre."


def _book(tmp_path: Path, rules: str) -> doc.Document:
    (tmp_path / "book.yaml").write_text(
        f"title: R\nlanguage: en\nruleset: df-classic\n{rules}", encoding="utf-8"
    )
    (tmp_path / "book.dd").write_text("§ 1\nThe end.\n> victory\n", encoding="utf-8")
    return build_document(load_book(tmp_path))


def _front(document: doc.Document) -> list[str]:
    return [b.text if isinstance(b, doc.Heading) else text(b.inlines) for b in document.front]


def test_the_rules_come_from_the_ruleset_data(tmp_path: Path) -> None:
    plain = _front(_book(tmp_path, ""))
    assert (
        "Roll one die and add 6 to the total: this is your initial SKILL; write it in the "
        "SKILL box of your Adventure Sheet." in plain
    )
    assert (
        "If your Attack Strength is higher, you have wounded your enemy: take 2 points from its "
        "STAMINA." in plain
    )
    assert "Each Provision you eat gives you back 4 STAMINA points." in plain
    changed = _front(
        _book(
            tmp_path,
            "rules:\n"
            "  stats:\n"
            "    MAGIC: {names: {en: MAGIC, fr: MAGIE}, roll: 2d6+3}\n"
            "  fight: {damage: {to_enemy: 3, to_hero: 1}}\n"
            "  meals: {heal: 5}\n"
            "  inventory_limit: 6\n",
        )
    )
    assert (
        "Roll 2 dice and add 3 to the total: this is your initial MAGIC; write it in the "
        "MAGIC box of your Adventure Sheet." in changed
    )
    assert (
        "If your Attack Strength is higher, you have wounded your enemy: take 3 points from its "
        "STAMINA." in changed
    )
    assert (
        "If your enemy's Attack Strength is higher, it has wounded you: take 1 point from your "
        "STAMINA." in changed
    )
    assert "Each Provision you eat gives you back 5 STAMINA points." in changed
    assert "You may carry at most 6 items." in changed


def test_the_sheet_has_every_stat_and_the_encounter_boxes(tmp_path: Path) -> None:
    sheet = _book(tmp_path, "").sheet
    assert sheet is not None
    labels = {box.label: box for box in sheet.boxes}
    assert labels["SKILL"].initial and labels["STAMINA"].initial and labels["LUCK"].initial
    assert {"Provisions", "Gold pieces", "Equipment", "Notes"} <= set(labels)
    assert labels["Equipment"].lines >= 8
    assert sheet.encounter_stats == ("SKILL", "STAMINA") and sheet.encounters == 12


def test_french_sentences_agree_with_a_heroine(tmp_path: Path) -> None:
    (tmp_path / "book.yaml").write_text(
        "title: H\nlanguage: fr\ncreation: {gender: f}\n", encoding="utf-8"
    )
    (tmp_path / "book.dd").write_text(
        "§ 1\n> combat GOBELIN HABILETÉ 5 ENDURANCE 4\n> défaite -> 2\n> victoire -> 3\n\n"
        "§ 2\nPerdu.\n> mort\n\n§ 3\nGagné.\n> victoire\n",
        encoding="utf-8",
    )
    document = build_document(load_book(tmp_path))
    assert "Si vous êtes vaincue, rendez-vous au 2." in sentences(document, 1)
    assert any("il vous a blessée\u00a0:" in line for line in _front(document))


def test_classes_and_starting_items_are_in_the_rules(tmp_path: Path) -> None:
    stars = _front(build_document(load_book(ROOT / "books" / "etoiles-mortes")))
    baroudeur = next(line for line in stars if line.startswith("Baroudeur"))
    assert baroudeur.endswith("\u202f; objets\u00a0: BFG 9000, sac à dos, corde.")
    kit = _front(_book(tmp_path, "items: [Lantern, 2 Torches]\n"))
    assert "You start the adventure with: Lantern, 2 Torches." in kit


def test_a_choice_keeps_its_light_markdown(tmp_path: Path) -> None:
    (tmp_path / "book.yaml").write_text("title: T\nlanguage: fr\n", encoding="utf-8")
    (tmp_path / "book.dd").write_text(
        "§ 1\nDébut.\n-> 2 Ouvrir la **grande** porte\n\n§ 2\n> victoire\n", encoding="utf-8"
    )
    choices = build_document(load_book(tmp_path)).sections[0].blocks[-1]
    assert isinstance(choices, doc.Choices)
    assert choices.items[0].inlines == (
        "Ouvrir la ",
        doc.Styled("grande", bold=True),
        " porte\u00a0: rendez-vous au ",
        doc.Ref(2),
        ".",
    )


def _dump(document: doc.Document) -> str:
    """The document as plain text: headings, rules, numbered sections, boxes."""
    lines = [document.title, ""]
    for block in document.front:
        lines.append(f"# {block.text}" if isinstance(block, doc.Heading) else text(block.inlines))
    for section in document.sections:
        lines.extend(["", f"[{section.number}]"])
        for block in section.blocks:
            if isinstance(block, doc.Choices):
                lines.extend(f"  - {text(choice.inlines)}" for choice in block.items)
            elif isinstance(block, doc.EnemyBox):
                for enemy in block.enemies:
                    stats = "  ".join(f"{name} {value}" for name, value in enemy.stats)
                    lines.append(f"  | {enemy.name}  {stats}")
                if block.note:
                    lines.append(f"  | {block.note}")
            else:
                lines.append(text(block.inlines))
    return "\n".join(lines) + "\n"


def test_the_printed_text_of_the_amateur_book(snapshot) -> None:
    assert _dump(build_document(load_book(EXTRA / "amateur"))) == snapshot


def test_a_choice_without_words_reads_as_a_condition(tmp_path: Path) -> None:
    (tmp_path / "book.yaml").write_text("title: T\nlanguage: fr\n", encoding="utf-8")
    (tmp_path / "book.dd").write_text(
        "§ 1\nDébut.\n> prenez Lanterne\n-> 2 (si Lanterne)\n-> 2 Attendre\n\n§ 2\n> victoire\n",
        encoding="utf-8",
    )
    document = build_document(load_book(tmp_path))
    assert sentences(document, 1)[1] == "Si vous possédez Lanterne, rendez-vous au 2."
