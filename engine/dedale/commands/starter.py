"""The starter book ``dedale new`` writes, in English or French keywords.

Five paragraphs that show a choice, an item, a codeword, conditional choices and both
endings; nothing in it depends on a ruleset's stats, so it validates clean under
``dedale validate --strict`` whatever ``--ruleset`` names. ``{ruleset}`` is filled in.
"""

from __future__ import annotations

BOOK_YAML = {
    "en": """\
# The book's metadata (docs/language.md §1). Run `dedale validate --strict .` after each edit
# and `dedale play .` to read it; `dedale play . --playtest --watch` reloads it as you write.
title: My First Adventure
author: Your Name
language: en
ruleset: {ruleset}
start: 1
""",
    "fr": """\
# Les métadonnées du livre (docs/language.md §1). Lancez `dedale validate --strict .` après
# chaque modification et `dedale play .` pour le lire ; `dedale play . --playtest --watch`
# le recharge pendant que vous écrivez.
titre: Ma première aventure
auteur: Votre nom
langue: fr
jeu-de-regles: {ruleset}
départ: 1
""",
}

FIRST_FILE = {"en": "01-start.dd", "fr": "01-debut.dd"}

PARAGRAPHS = {
    "en": """\
// Your book starts here. A paragraph begins with `§` and its number; prose follows;
// rules go on lines of their own: `->` for a choice, `>` for a directive. A choice with
// no text (`-> 4`) reads "Turn to 4".

§ 1
You stand at the mouth of a cave. Two tunnels lead into the dark.
-> 2 Take the left tunnel
-> 3 Take the right tunnel

§ 2
An old lantern hangs on a hook. You take it.
> take Lantern
-> 4 Go on

§ 3
Green moss grows along the wall, and someone has scratched a sign into it.
> set codeword MOSS
-> 4

§ 4
The tunnels meet in a hall so dark you cannot see its end.
-> 5 (if Lantern) Light the lantern and cross the hall
-> 5 (if codeword MOSS) Follow the moss across the hall in the dark
-> 6 Run blindly across the hall

§ 5
Daylight: the far side of the hill, and the way home.
> victory

§ 6
The floor gives way under your feet.
> death
""",
    "fr": """\
// Votre livre commence ici. Un paragraphe commence par `§` et son numéro ; la prose suit ;
// les règles ont chacune leur ligne : `->` pour un choix, `>` pour une directive. Un choix
// sans texte (`-> 4`) se lit « Rendez-vous au 4 ».

§ 1
Vous êtes à l'entrée d'une grotte. Deux tunnels s'enfoncent dans le noir.
-> 2 Prendre le tunnel de gauche
-> 3 Prendre le tunnel de droite

§ 2
Une vieille lanterne pend à un crochet. Vous la prenez.
> prenez Lanterne
-> 4 Continuer

§ 3
Une mousse verte pousse le long de la paroi, et quelqu'un y a gravé un signe.
> notez mot-code MOUSSE
-> 4

§ 4
Les tunnels se rejoignent dans une salle si sombre que vous n'en voyez pas le bout.
-> 5 (si Lanterne) Allumer la lanterne et traverser la salle
-> 5 (si mot-code MOUSSE) Suivre la mousse à travers la salle, dans le noir
-> 6 Traverser la salle en courant, à l'aveugle

§ 5
La lumière du jour : l'autre versant de la colline, et le chemin du retour.
> victoire

§ 6
Le sol se dérobe sous vos pieds.
> mort
""",
}
