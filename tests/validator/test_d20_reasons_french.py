"""A French d20 book's validator report is French all through: the reasons an error or a
refusal of the exact odds carries stay Messages until the report is written (they were
turned into their English text on the way: validator/fights_d20.py, fight_path_d20.py,
fights.py)."""

from __future__ import annotations

import dataclasses

from dedale import ast
from dedale.cli import main
from dedale.i18n import translate
from dedale.language import load_book
from dedale.validator.fight_findings import fight_findings
from dedale.validator.fights_d20 import d20_fight_reports
from dedale.validator.graph import build_graph, walk

HEAD = "---\ntitle: Le pont\nlanguage: fr\nruleset: d20\n---\n"
TAIL = "> victoire -> 2\n\n§ 2\nVous passez.\n> victoire\n"
ALLY = (
    "§ 1\nUn brigand bloque le pont.\n> combat\n"
    "> ennemi BRIGAND CA 13 attaque +3 dégâts 1d8 PV 9\n"
    "> allié BRAN CA 12 attaque +2 dégâts 1d6 PV 8\n"
)
NO_HP = "§ 1\nUn brigand bloque le pont.\n> combat\n> ennemi BRIGAND CA 13 attaque +3 dégâts 1d8\n"


def _validate(tmp_path, capsys, body: str) -> str:
    path = tmp_path / "livre.dd"
    path.write_text(HEAD + body + TAIL, "utf-8")
    main(["validate", "--lang", "fr", str(path)])
    return " ".join(capsys.readouterr().out.replace("\xa0", " ").split())


def test_i115_of_a_fight_with_an_ally_says_why_in_french(tmp_path, capsys):
    out = _validate(tmp_path, capsys, ALLY)
    assert (
        "I115 les chances du combat contre BRIGAND sont estimées : le livre agit dans ce "
        "combat d20 : les combats avec des alliés n'ont pas de chances exactes"
    ) in out, out
    assert "fights with allies" not in out


def test_an_enemy_without_hp_is_said_in_french(tmp_path, capsys):
    out = _validate(tmp_path, capsys, NO_HP)
    assert "E002 l'ennemi `BRIGAND` n'a pas de" in out, out
    # the check stops such a book at load; the fight report the rules core's error gives
    # (the enemy's PV taken away after the load) keeps its Message too
    path = tmp_path / "livre.dd"
    path.write_text(HEAD + NO_HP.replace("1d8\n", "1d8 PV 9\n") + TAIL, "utf-8")
    book = load_book(path)
    graph = build_graph(book)
    fight = next(s for s in walk(graph.nodes[1].paragraph.body) if isinstance(s, ast.Fight))
    enemy = fight.enemies[0]
    bare = dataclasses.replace(enemy, stats=tuple(s for s in enemy.stats if s[0] != "PV"))
    fight = dataclasses.replace(fight, enemies=(bare,))
    (report,) = d20_fight_reports(graph, book, [(1, fight)], 0, None)
    assert translate(report.error, "fr") == ("l'ennemi BRIGAND a besoin d'une valeur pour PV")
    (w032,) = fight_findings([report], 0.05)
    shown = translate(w032.message, "fr").replace("\xa0", " ")
    assert shown.endswith(": l'ennemi BRIGAND a besoin d'une valeur pour PV"), shown
    assert "needs a value" not in shown
