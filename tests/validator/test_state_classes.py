"""Classes that cannot differ are explored once (validator.state_batches, issue 14.11): when
no condition tests the hero's class, classes whose kits give the same tracked items find the
same states; the exploration shared between them finds exactly what one per class finds
(reached paragraphs, gates, findings, every class's states, the count and its budget)."""

from __future__ import annotations

from pathlib import Path

import pytest
from dedale.language import load_book
from dedale.validator import state_batches, state_explorer
from dedale.validator.graph import build_graph
from dedale.validator.rules_checks import collect_uses
from dedale.validator.state_reach import check_states
from dedale.validator.state_start import explore_states

# df48.5's classes: the Baroudeur's kit has a rope (corde), the Mercenaire's and the
# Scientifique's an armour (armure)
BODY = """§ 1
Le sas s'ouvre sur la station.
-> 2 {rope}Descendre le puits
-> 3 Prendre l'escalier
-> 4 {armour}Forcer la porte blindée
-> 5 {cls}Lire les schémas

§ 2
Au fond du puits, une clé.
> prenez Clé
-> 5 Remonter

§ 3
> notez mot-code escalier
-> 5 Continuer

§ 4
-> 5 Continuer

§ 5
Un coffre et une grille.
-> 6 (si Clé) Ouvrir le coffre
-> 7 (si mot-code escalier) Redescendre
-> 8 Attendre

§ 6
> victoire

§ 7
-> 5 Revenir

§ 8
> mort
"""


def _book(tmp_path: Path, rope: bool, armour: bool, cls: bool) -> Path:
    folder = tmp_path / f"book-{rope}-{armour}-{cls}"
    folder.mkdir()
    (folder / "book.yaml").write_text(
        "titre: Classes\nlangue: fr\njeu-de-règles: df48.5\n", "utf-8"
    )
    text = BODY.format(
        rope="(si corde) " if rope else "",
        armour="(si armure) " if armour else "",
        cls="(si classe Scientifique) " if cls else "",
    )
    (folder / "station.dd").write_text(text, "utf-8")
    return folder


def _outcome(folder: Path, monkeypatch, share: bool):
    book = load_book(folder)
    graph = build_graph(book)
    uses = collect_uses(graph)
    explored = []
    with monkeypatch.context() as patch:
        if not share:  # every class on its own, as before the sharing
            patch.setattr(
                state_batches, "_same_classes", lambda _, starts: {s[3]: [] for s in starts}
            )
        original = state_batches._same_classes

        def spy(explorer, starts):
            found = original(explorer, starts)
            explored.append(len(found))
            return found

        patch.setattr(state_batches, "_same_classes", spy)
        explorer = explore_states(graph, book, uses, (), None)
    gates = {
        key: (gate.passable, frozenset(gate.missing or ()), frozenset(gate.targets))
        for key, gate in explorer.gates.items()
    }
    states = {key: frozenset(bits) for key, bits in explorer.batch_seen.items()}
    found = [
        (f.code, f.message, f.span) for f in check_states(graph, book, uses, (), explorer=explorer)
    ]
    outcome = (explorer.truncated, explorer.reached, gates, states, explorer.count, found)
    return outcome, explored[-1]


@pytest.mark.parametrize(
    ("rope", "armour", "cls", "explored"),
    [
        (False, False, False, 1),  # no kit item tested: the three classes are one
        (True, False, False, 2),  # the rope tested: the Baroudeur apart
        (True, True, False, 2),  # the armour too: Mercenaire and Scientifique together
        (False, False, True, 3),  # a class tested: each class on its own
        (True, True, True, 3),
    ],
)
def test_classes_explored_once_find_what_each_class_finds(
    tmp_path, monkeypatch, rope, armour, cls, explored
):
    folder = _book(tmp_path, rope, armour, cls)
    shared, explored_shared = _outcome(folder, monkeypatch, share=True)
    alone, explored_alone = _outcome(folder, monkeypatch, share=False)
    assert explored_alone == 3 and explored_shared == explored
    assert shared == alone
    per_class: dict[frozenset, set] = {}
    for (number, names), bits in shared[3].items():
        per_class.setdefault(names, set()).add((number, bits))
    assert len(per_class) == 3  # every class's states are there
    distinct = {frozenset(states) for states in per_class.values()}
    assert len(distinct) == (explored if not cls else len(distinct))
    assert 6 in shared[1] and 5 in shared[1]


def test_the_count_budget_counts_every_class(tmp_path, monkeypatch):
    folder = _book(tmp_path, False, False, False)
    (_, _, _, _, count, _), explored = _outcome(folder, monkeypatch, share=True)
    assert explored == 1
    for limit, truncated in ((count - 1, True), (count, False)):
        monkeypatch.setattr(state_explorer, "MAX_STATES", limit)
        for share in (True, False):
            outcome, _ = _outcome(folder, monkeypatch, share=share)
            assert outcome[0] is truncated, (limit, share)
