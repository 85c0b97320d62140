"""A hand-built Document for the renderers' tests (independent of the builder)."""

from __future__ import annotations

from dedale.export.document import (
    AdventureSheet,
    Choice,
    Choices,
    Document,
    Ending,
    Enemy,
    EnemyBox,
    Heading,
    Prose,
    Ref,
    Rule,
    Section,
    SheetBox,
    Styled,
)

HOSTILE = '#set page(fill: red) *bold* _x_ [a] $x$ @ref <lab> \\ " `code` = - + / ~ #"'


def sample_document(sections: int = 40, language: str = "fr") -> Document:
    """A small French book: prose, rules, choices, an enemy box, endings, hostile text."""
    items = []
    for n in range(1, sections + 1):
        blocks = [
            Prose((f"Le couloir numéro {n} s'enfonce dans la roche humide. " * 6,)),
        ]
        if n == 3:
            blocks.append(Prose((HOSTILE,)))
        if n % 7 == 0:
            blocks.append(EnemyBox((Enemy("GOBELIN", (("HABILETÉ", "7"), ("ENDURANCE", "8"))),)))
        if n == sections:
            blocks.append(Ending("victory", ("Votre aventure s'achève ici, victorieuse.",)))
        elif n % 11 == 0:
            blocks.append(Ending("death", ("Votre aventure se termine ici.",)))
        else:
            target = n + 2 if n + 2 <= sections else sections
            blocks.append(
                Rule(
                    (
                        "Tentez votre Chance : si vous êtes Chanceux, rendez-vous au ",
                        Ref(target),
                        " ; sinon, rendez-vous au ",
                        Ref(n + 1),
                        ".",
                    )
                )
            )
            blocks.append(
                Choices(
                    (
                        Choice(
                            ("Si vous ouvrez la porte, rendez-vous au ", Ref(target)), Ref(target)
                        ),
                        Choice(
                            (Styled("Fuir", bold=True), " : rendez-vous au ", Ref(n + 1)),
                            Ref(n + 1),
                        ),
                    )
                )
            )
        items.append(Section(n, tuple(blocks)))
    sheet = AdventureSheet(
        "Feuille d'Aventure",
        (
            SheetBox("HABILETÉ", initial=True),
            SheetBox("ENDURANCE", initial=True),
            SheetBox("CHANCE", initial=True),
            SheetBox("Or"),
            SheetBox("Provisions"),
            SheetBox("Équipement", lines=8),
            SheetBox("Mots de passe", lines=4),
        ),
        "Rencontre",
        ("HABILETÉ", "ENDURANCE"),
        12,
    )
    front = (
        Heading("Règles"),
        Prose(("Lancez deux dés et ajoutez 12 : c'est votre ENDURANCE. " * 5,)),
        Rule(("Lisez d'abord le paragraphe ", Ref(1), ".")),
    )
    return Document(
        "La Grotte des Échos", "Anne Onyme", language, front, tuple(items), sheet,
        {"sheet": "Feuille d'Aventure", "rules": "Règles", "sections": "L'aventure"},
    )  # fmt: skip
