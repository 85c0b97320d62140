"""The validator on the book's own flags and counters (issue 13 §4): W094 (a flag tested
but never noted), W095 (a hidden flag noted but never tested), W096 (a counter condition no
path can meet), I097 (declared, never used), and the state explorer's W029 on a flag noted
only on paths that avoid its test. Every check also stays silent where it should."""

from __future__ import annotations

from pathlib import Path

from dedale.language import load_book
from dedale.validator import validate_loaded

HEAD = """title: t
language: en
state:
  flags:
    calf following: {}
    met lieutenant: {sheet: no}
  counters:
    lieutenants met: {max: 5}
"""


def findings(tmp_path: Path, body: str, head: str = HEAD) -> list[tuple[str, int, str]]:
    (tmp_path / "book.yaml").write_text(head, "utf-8")
    (tmp_path / "p.dd").write_text(body, "utf-8")
    report = validate_loaded(load_book(tmp_path), str(tmp_path), runs=0)
    return [(f.code, f.span.line if f.span else 0, str(f.message)) for f in report.findings]


def codes(found) -> list[str]:
    return [code for code, _, _ in found]


USE_ALL = (
    "§ 1\n> note met lieutenant\n> note calf following\n> add 1 to lieutenants met\n"
    "-> 2 (if met lieutenant and lieutenants met >= 1) On\n-> 3 (if calf following) Calf\n"
    "\n§ 2\n> victory\n\n§ 3\n> victory\n"
)


def test_a_book_using_its_state_well_has_no_finding(tmp_path):
    assert findings(tmp_path, USE_ALL) == []


def test_w094_a_flag_tested_but_never_noted(tmp_path):
    body = USE_ALL.replace("> note calf following\n", "")
    found = findings(tmp_path, body)
    assert ("W094", 5, "flag 'calf following' is tested here but no paragraph notes it") in found


def test_w095_a_hidden_flag_noted_but_never_tested(tmp_path):
    body = USE_ALL.replace("met lieutenant and ", "")
    assert codes(findings(tmp_path, body)) == ["W095"]
    shown = HEAD.replace("met lieutenant: {sheet: no}", "met lieutenant: {}")
    assert findings(tmp_path, body, shown) == []  # on the sheet, noting it is not in vain


def test_w096_a_counter_that_cannot_reach_the_value(tmp_path):
    body = USE_ALL.replace("lieutenants met >= 1", "lieutenants met >= 2")
    found = findings(tmp_path, body)
    assert found == [
        ("W096", 5, "counter 'lieutenants met' only goes from 0 to 1 in this book, so this "
                    "condition is never met"),
    ]  # fmt: skip


def test_w096_is_silent_when_the_counter_may_grow_on_a_loop(tmp_path):
    body = (
        "§ 1\n> note met lieutenant\n> note calf following\n-> 4 Walk\n\n"
        "§ 4\n> add 1 to lieutenants met\n-> 4 (if lieutenants met < 9) Again\n"
        "-> 2 (if met lieutenant and lieutenants met >= 2) On\n-> 3 (if calf following) Calf\n"
        "\n§ 2\n> victory\n\n§ 3\n> victory\n"
    )
    assert findings(tmp_path, body) == []


def test_w096_honours_the_maximum_and_a_fall_to_zero(tmp_path):
    body = USE_ALL.replace("> add 1 to lieutenants met", "> add 1d6 to lieutenants met")
    found = findings(tmp_path, body.replace(">= 1", ">= 6"))
    assert codes(found) == ["W096"] and "from 0 to 5" in found[0][2]
    start = HEAD.replace("{max: 5}", "{start: 2}")
    assert codes(findings(tmp_path, USE_ALL.replace(">= 1", "< 2"), start)) == ["W096"]
    lowered = USE_ALL.replace("> add 1 to", "> remove 1 from")
    assert findings(tmp_path, lowered.replace(">= 1", "< 2"), start) == []


def test_i097_declared_but_never_used(tmp_path):
    head = HEAD + "    spare: {}\n"
    assert [(c, line) for c, line, _ in findings(tmp_path, USE_ALL, head)] == [("I097", 9)]


def test_w029_a_flag_noted_only_on_another_path(tmp_path):
    body = (
        "§ 1\n> note met lieutenant\n> add 1 to lieutenants met\n-> 2 Left\n-> 3 Right\n\n"
        "§ 2\n> note calf following\n-> 5 On\n\n"
        "§ 3\n-> 4 (if met lieutenant and lieutenants met >= 1) On\n"
        "-> 5 (if calf following, disabled) Calf\n\n"
        "§ 4\n> victory\n\n§ 5\n> victory\n"
    )
    found = findings(tmp_path, body)
    assert [(c, line) for c, line, _ in found] == [("W029", 13)]
    assert "flag 'calf following'" in found[0][2]


def test_a_forced_loop_that_counts_is_not_forever(tmp_path):
    body = (
        "§ 1\n> note met lieutenant\n> note calf following\n> go to 4\n\n"
        "§ 4\n> add 1 to lieutenants met\n> if lieutenants met >= 3: go to 2\n> go to 4\n\n"
        "§ 2\n-> 3 (if met lieutenant) On\n-> 3 (if calf following) Calf\n\n§ 3\n> victory\n"
    )
    assert "E070" not in codes(findings(tmp_path, body))


def test_a_computed_destination_over_a_counter_set_to_numbers(tmp_path):
    head = "title: t\nlanguage: en\nstate:\n  counters: [key]\n"
    body = "§ 1\n> set key to 30\n-> 2 On\n\n§ 2\n-> [key + 10] Open\n\n§ 40\n> victory\n"
    found = findings(tmp_path, body, head)
    assert ("I019", 6) in [(c, line) for c, line, _ in found]
    assert "W018" not in codes(found) and "W013" not in codes(found)
    counted = body.replace("> set key to 30", "> add 30 to key")
    assert "W018" in codes(findings(tmp_path, counted, head))  # added to: cannot tell


FR_HEAD = """titre: t
langue: fr
état:
  drapeaux:
    serpent apaisé: {feuille: non}
  compteurs:
    morsures: {}
"""


def test_state_read_and_changed_only_under_an_enemy_is_used(tmp_path):
    """A flag tested only by a rule under an enemy, a counter counted only by an event of
    the fight and read only by its end condition: no W095, no I097, and the count that an
    event repeats each assault is not bounded as a single `add` (no W096)."""
    body = (
        "§ 1\n-> 2 (notez serpent apaisé) Jouer de la flûte\n-> 2 Passer\n\n"
        "§ 2\n> combat VIPÈRE HABILETÉ 5 ENDURANCE 4\n> il subit tout (si serpent apaisé)\n"
        "> quand il gagne un assaut : ajoutez 1 à morsures\n"
        "> fin du combat quand morsures >= 2 -> 4\n> victoire -> 3\n\n"
        "§ 3\n> victoire\n\n§ 4\n> mort\n"
    )
    assert findings(tmp_path, body, FR_HEAD) == []
    unread = body.replace(" (si serpent apaisé)", "").replace("morsures >= 2", "ENDURANCE < 3")
    assert codes(findings(tmp_path, unread, FR_HEAD)) == ["W095"]  # the event still counts
    unused = unread.replace("> quand il gagne un assaut : ajoutez 1 à morsures\n", "")
    found = findings(tmp_path, unused, FR_HEAD)
    assert sorted(codes(found)) == ["I097", "W095"]  # the readers taken away
    unused_text = next(text for code, _, text in found if code == "I097")
    assert unused_text == "'morsures' is declared in book.yaml but no paragraph uses it"
