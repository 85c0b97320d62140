"""The book language's amateur constructs (issue 8), in English and French keywords: both
spellings build the same AST; Lark and the fast path agree; mistakes point at the line."""

from __future__ import annotations

import pytest
from dedale import ast
from dedale.errors import BookLoadError
from dedale.language.parser import lark_line_items, parse_text

from .helpers import plain

# (English, French) spellings of each construct, one directive or choice line each.
PAIRS = [
    ("> hidden number otherwise -> 45", "> nombre secret sinon -> 45"),
    ("> the number you know, otherwise -> 45", "> le numéro que vous connaissez, sinon -> 45"),
    ("> hidden paragraph", "> paragraphe secret"),
    ("> note paragraph camp", "> notez paragraphe camp"),
    ("> note this paragraph camp", "> notez ce paragraphe camp"),
    ("> go back", "> revenez en arrière"),
    ("> go to [noted camp]", "> allez au [noté camp]"),
    ("> go to [previous]", "> rendez-vous au [précédent]"),
    ("> go to [paragraph × 3]", "> allez au [paragraphe * 3]"),
    ("-> [gold + 50] Pay", "-> [gold + 50] Pay"),
    ("> roll 4d6 against STAMINA +2", "> lancez 4d6 contre STAMINA +2"),
    ("> roll 2d6 against your SKILL", "> lancez 2d6 contre votre SKILL"),
    (
        "> status Poisoned: lose 1 STAMINA each paragraph",
        "> état Poisoned : perdez 1 STAMINA à chaque paragraphe",
    ),
    ("> cure Poisoned", "> guérissez Poisoned"),
    ("> end status Poisoned", "> fin de l'état Poisoned"),
    ("> if status Poisoned: lose 1 STAMINA", "> si état Poisoned : perdez 1 STAMINA"),
    ("> eat a meal or lose 3 STAMINA", "> mangez un repas ou perdez 3 STAMINA"),
    ("> eat a meal now, or lose 3 STAMINA", "> mangez un repas maintenant, ou perdez 3 STAMINA"),
    ("> attack with MAGIC", "> attaque avec MAGIC"),
    ("> buy Sword for 7 gold (weapon, SKILL +1)", "> achetez Sword pour 7 gold (arme, SKILL +1)"),
    ("> buy 2 Torches for 1 gold", "> achetez 2 Torches pour 1 gold"),
    ("> sell Gem for 10 gold", "> vendez Gem pour 10 gold"),
    ("> wager up to 10 gold, win on 2d6 8-12", "> pariez jusqu'à 10 gold, gagnant sur 2d6 8-12"),
    ("> bet up to 5 gold win on 1d6 6", "> misez jusqu'à 5 gold gagnant sur 1d6 6"),
    (
        "> status Bleeding: lose 1 STAMINA each assault",
        "> état Bleeding : perdez 1 STAMINA à chaque assaut",
    ),
    (
        "> when your STAMINA falls to 4 or less -> 80",
        "> quand votre STAMINA tombe à 4 ou moins -> 80",
    ),
    ("> after 3 assaults won -> 50", "> gagnez 3 assauts -> 50"),
    ("> ally BRAN SKILL 8 STAMINA 10", "> allié BRAN SKILL 8 STAMINA 10"),
    ("> the enemy strikes the ally", "> l'ennemi frappe l'allié"),
    ("> enemies strike at random", "> les ennemis frappent au hasard"),
    ("> the enemy strikes you", "> l'ennemi frappe le héros"),
    ("> each assault roll 1d6", "> à chaque assaut lancez 1d6"),
    ("> take Brass Key (number 50)", "> prenez Brass Key (numéro 50)"),
    ("> go to [number of Brass Key + 20]", "> allez au [numéro de Brass Key + 20]"),
]


def _items(line: str) -> list:
    return lark_line_items(line, 1, "x.dd")


@pytest.mark.parametrize(("english", "french"), PAIRS, ids=[p[0] for p in PAIRS])
def test_both_keyword_languages_build_the_same_ast(english, french):
    assert plain(_items(english), spans=False) == plain(_items(french), spans=False)


def test_the_nodes_built():
    (hidden,) = _items("> hidden number otherwise -> 45")
    assert hidden == ast.HiddenNumber(span=hidden.span, otherwise=hidden.otherwise)
    assert hidden.otherwise.number == 45
    (goto,) = _items("> go to [paragraph × 3 + gold]")
    assert plain(goto.target.expr, spans=False) == {
        "_type": "BinOp", "op": "+",
        "left": {
            "_type": "BinOp", "op": "*",
            "left": {"_type": "CurrentParagraph"}, "right": {"_type": "Num", "value": 3},
        },
        "right": {"_type": "ValueRef", "name": "gold", "initial": False},
    }  # fmt: skip
    (back,) = _items("> go back")
    assert isinstance(back, ast.Goto) and isinstance(back.target.expr, ast.PreviousParagraph)
    (test,) = _items("> roll 4d6 against STAMINA +2")
    assert (test.name, test.dice.text, [m.value for m in test.modifiers]) == ("STAMINA", "4d6", [2])
    (status,) = _items("> status Cursed: lose 1d2 LUCK each paragraph")
    assert (status.name, status.change.op, status.change.name) == ("Cursed", "sub", "LUCK")
    assert status.change.amount == ast.DiceRoll(span=status.change.amount.span, text="1d2")
    (meal,) = _items("> eat a meal or lose 3 STAMINA")
    assert (meal.penalty.op, meal.penalty.amount.value) == ("sub", 3)


def test_names_keep_their_accents_and_case():
    (note,) = _items("> notez paragraphe Grotte Sombre")
    assert note.name == "Grotte Sombre"
    (status,) = _items("> état Empoisonné : perdez 1 ENDURANCE à chaque paragraphe")
    assert status.name == "Empoisonné"


def test_a_paragraph_file_with_every_construct():
    text = """§ 1
> note paragraph camp
> status Poisoned: lose 1 STAMINA each paragraph
> roll 4d6 against STAMINA
> success -> 2
> failure: eat a meal or lose 2 STAMINA
> hidden number otherwise -> [noted camp]
§ 2
> hidden paragraph
-> [previous] Back
"""
    paragraphs = parse_text(text, "x.dd").paragraphs
    kinds = [type(s).__name__ for s in paragraphs[0].body]
    assert kinds == ["NoteParagraph", "StatusOn", "Test", "HiddenNumber"]
    test = paragraphs[0].body[2]
    assert [b.outcome for b in test.branches] == ["success", "failure"]
    assert isinstance(test.branches[1].body[0], ast.ForcedMeal)
    assert [type(s).__name__ for s in paragraphs[1].body] == ["HiddenParagraph", "Choice"]


@pytest.mark.parametrize(
    ("line", "column"),
    [
        ("> hidden number ->", 19),
        ("-> [gold + ] x", 12),
        ("> note paragraph", 17),
        ("> roll 2d6 against", 19),
        ("> status Poisoned lose 1 STAMINA each paragraph", 24),
        ("> eat a meal", 13),
    ],
)
def test_mistakes_point_at_the_line(line, column):
    with pytest.raises(BookLoadError) as caught:
        parse_text(f"§ 1\n{line}\n", "x.dd")
    (error,) = caught.value.errors
    assert (error.span.line, error.span.column) == (2, column)


def test_parenthesised_choice_options_are_not_computed_destinations():
    with pytest.raises(BookLoadError) as caught:
        parse_text("§ 1\n-> (if Key) Open\n", "x.dd")
    assert "right after `->`" in caught.value.errors[0].message


def test_consecutive_offers_make_one_shop():
    text = """§ 1
> buy Épée longue for 9 or
> sell 2 Pierres de lune for 3 or
Some text.
> buy Rope for 1 gold
"""
    body = parse_text(text, "x.dd").paragraphs[0].body
    assert [type(s).__name__ for s in body] == ["Shop", "Prose", "Shop"]
    first = body[0].offers
    assert [(type(o.goods).__name__, o.goods.item, o.goods.count, o.price) for o in first] == [
        ("GainItem", "Épée longue", 1, 9), ("LoseItem", "Pierres de lune", 2, 3),
    ]  # fmt: skip


def test_attack_with_completes_the_fight():
    text = "§ 1\n> fight DEMON MAGIC 9 STAMINA 8\n> attack with MAGIC\n> win -> 2\n"
    (fight,) = parse_text(text, "x.dd").paragraphs[0].body
    assert (fight.attack_stat, fight.win.number) == ("MAGIC", 2)
    with pytest.raises(BookLoadError) as caught:
        parse_text("§ 1\n> attack with MAGIC\n", "x.dd")
    assert "without a fight" in caught.value.errors[0].message


def test_rows_after_each_assault_roll_belong_to_the_fight():
    text = "§ 1\n> fight OGRE SKILL 8 STAMINA 10\n> each assault roll 1d6\n> 1-2: lose 1 STAMINA\n"
    text += "> 6 -> 40\n> roll 1d6\n> 1-6 -> 2\n"
    fight, roll = parse_text(text, "x.dd").paragraphs[0].body
    assert [(b.low, b.high) for b in fight.assault_table.branches] == [(1, 2), (6, 6)]
    assert [(b.low, b.high) for b in roll.branches] == [(1, 6)]


def test_a_noted_name_nobody_notes_is_a_load_error(tmp_path):
    from dedale.language import load_book

    book = tmp_path / "b.dd"
    book.write_text("---\ntitle: t\n---\n§ 1\n-> [noted cave] Back\n> note paragraph grotte\n")
    with pytest.raises(BookLoadError) as caught:
        load_book(book)
    (error,) = caught.value.errors
    assert "no paragraph is noted as `cave`" in error.message
    assert (error.span.line, error.span.column) == (5, 5)
