"""The audit of issue 12.4 (book.yaml part): every documented key of book.yaml has an effect
where a person sees it. The keys are read from the loader's own table
(``dedale.language.meta_keys``); each has a check that builds a tiny book with the key set to
a non-default value, written in English and in French, and looks at the plain player's
transcript, the validator's report, the title screen's preview or the loaded Book. A key added
to the table without an effect check fails here."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest
from dedale.game import Game
from dedale.language import load_book
from dedale.language.meta_keys import CREATION_KEYS, TOP_KEYS, VALIDATOR_KEYS
from dedale.plain.player import PlainPlayer
from dedale.player.book_view import BookView
from dedale.player.preview import read_preview
from dedale.validator import validate_loaded

BODY = "§ 1\nHello {name}.\n-> 2 Go on\n\n§ 2\nThe end.\n> victory\n"

# The sections of book.yaml whose keys are settings of their own.
SECTIONS = {"": TOP_KEYS, "creation": CREATION_KEYS, "validator": VALIDATOR_KEYS}


def documented_keys() -> list[str]:
    """Every key of the loader's table: ``title``, ``creation.reroll``, ``validator.runs``..."""
    return [f"{section}.{key}" if section else key for section, keys in SECTIONS.items()
            for key in keys]  # fmt: skip


def spelled(path: str, french: bool) -> tuple[str, str | None]:
    """(the key as the author writes it, its section as written) in English or French."""
    section, _, key = path.rpartition(".")
    keys = SECTIONS[section]
    name = keys[key][0] if french else key
    if not section:
        return name, None
    return name, TOP_KEYS[section][0] if french else section


class Author:
    """Writes a book folder whose book.yaml has the key under audit (in one language)."""

    def __init__(self, root: Path, path: str, french: bool):
        self.root, self.path, self.french = root, path, french

    def key(self, path: str | None = None) -> str:
        return spelled(path or self.path, self.french)[0]

    def book(self, value: str, body: str = BODY, extra: str = "", files=None):
        """The folder: ``title``/``language`` lines, ``extra`` lines, the audited key."""
        name, section = spelled(self.path, self.french)
        line = f"  {name}: {value}\n" if section else f"{name}: {value}\n"
        if section:
            line = f"{section}:\n{line}"
        head = "" if self.path == "title" else "title: A book\n"
        if self.path != "language":
            head += "language: en\n"
        self.root.mkdir(parents=True, exist_ok=True)
        (self.root / "book.yaml").write_text(head + extra + line, "utf-8")
        for file, text in (files or {"01.dd": body}).items():
            (self.root / file).write_text(text, "utf-8")
        return self.root


def plain(folder: Path, lines: str = "sheet\n1\n", **creation) -> str:
    """What the plain player shows for ``lines`` typed in."""
    creation.setdefault("hero", (10, 20, 9))
    creation.setdefault("name", "Ari")
    game = Game.new(load_book(folder), 1, **creation)
    out = io.StringIO()
    PlainPlayer(game, io.StringIO(lines), out, echo=True).play()
    return out.getvalue()


def report(folder: Path, runs: int | None = 0):
    return validate_loaded(load_book(folder), str(folder), runs=runs)


def codes(folder: Path, runs: int | None = 0) -> set[str]:
    return {item.code for item in report(folder, runs).findings}


# ------------------------------------------------------------------ one check per key


def _title(a: Author) -> None:
    folder = a.book("The Lantern-Keeper")
    assert BookView(load_book(folder)).title == "The Lantern-Keeper"  # the player's title
    assert read_preview(folder).title == "The Lantern-Keeper"  # its title screen at once
    assert report(folder).title == "The Lantern-Keeper"


def _author(a: Author) -> None:
    folder = a.book("Jane Doe")
    assert BookView(load_book(folder)).author == "Jane Doe"
    assert read_preview(folder).author == "Jane Doe"


def _language(a: Author) -> None:
    folder = a.book("anglais" if a.french else "english")  # French is the default
    text = plain(folder)
    assert "Your choice?" in text and "Adventure Sheet of Ari" in text
    assert read_preview(folder).language == "en"
    assert report(folder).lang == "en"


def _ruleset(a: Author) -> None:
    folder = a.book("d20")
    text = plain(folder, hero=(12, 12, 12, 12, 12, 12, 2, 20))
    assert "STRENGTH: 12" in text and "SKILL" not in text


def _rules(a: Author) -> None:
    folder = a.book("{counters: {meals: {initial: 5}}}")
    assert "Provisions: 5" in plain(folder)


def _start(a: Author) -> None:
    text = plain(a.book("2"), lines="")
    assert "§ 2" in text and "§ 1" not in text


def _files(a: Author) -> None:
    files = {"a.dd": "§ 1\nFrom file A.\n> victory\n", "b.dd": "§ 1\nFrom file B.\n> victory\n"}
    text = plain(a.book("[b.dd]", files=files), lines="")
    assert "From file B." in text and "From file A." not in text


def _items(a: Author) -> None:
    body = (
        "§ 1\n-> 2 (if Rope) Climb down\n-> 3 Stay\n\n§ 2\nDown.\n> test your skill\n"
        "> success -> 4\n> failure -> 4\n\n§ 4\n> victory\n\n§ 3\n> death\n"
    )
    folder = a.book("[Rope, Sword (weapon, SKILL +1)]", body=body)
    text = plain(folder, lines="sheet\n1\n")
    assert "Items:\n    Rope\n    Sword (SKILL +1)" in text
    assert "SKILL: 10 (+1 Sword) = 11 (initial 10)" in text  # the sheet says why (16.7)
    assert "1. Climb down" in text and "Down." in text  # the gated choice is offered
    assert "against 11" in text  # the sword's SKILL +1 counts in the test (SKILL 10)


def _creation_fixed_stats(a: Author) -> None:
    text = plain(a.book("oui" if a.french else "true"), lines="8\n15\n7\nsheet\n1\n", hero=None)
    assert "SKILL: 8 (initial 8)" in text and "STAMINA: 15 (initial 15)" in text


def _creation_reroll(a: Author) -> None:
    text = plain(a.book("illimité" if a.french else "unlimited"), lines="y\ny\nn\n1\n", hero=None)
    assert text.count("(y/n)") == 3, text


def _creation_default_name(a: Author) -> None:
    text = plain(a.book("Ash"), lines="\n1\n", hero=(10, 20, 9), name=None)
    assert "Ash" in text and "Hello Ash." in text


DEATH = "§ 1\nA trap.\n> death\n"


def _creation_gender(a: Author) -> None:
    # the hero's gender shows in the French sentences about the hero
    folder = a.book("féminin" if a.french else "f", body=DEATH)
    assert "Vous êtes morte." in plain(folder, lines="", lang="fr")
    assert "You are dead" in plain(folder, lines="", lang="en")


UNREACHABLE = BODY + "\n§ 30\nNobody comes here.\n> victory\n"


def _validator_ignore(a: Author) -> None:
    found = codes(a.book("[]", body=UNREACHABLE))
    assert found, "the audit book has no finding to ignore"
    code = sorted(found)[0]
    folder = a.book(f"[{code}]", body=UNREACHABLE)
    assert code not in codes(folder) and report(folder).silenced >= 1


FIGHT = "§ 1\n> fight\n> enemy TROLL SKILL 9 STAMINA 9\n> win -> 2\n\n§ 2\n> victory\n"


def _validator_fight_threshold(a: Author) -> None:
    default = {item.code for item in report(a.book("0.05", body=FIGHT)).findings}
    strict = {item.code for item in report(a.book("0.99", body=FIGHT)).findings}
    assert strict - default, (default, strict)


def _validator_runs(a: Author) -> None:
    stats = report(a.book("7"), runs=None).playthroughs
    assert stats is not None and stats.runs == 7


LOOP = "§ 1\n-> 1 Wait\n-> 2 Go on\n\n§ 2\n> victory\n"


def _validator_max_steps(a: Author) -> None:
    default = report(a.book("2000", body=LOOP), runs=50)
    short = report(a.book("1", body=LOOP), runs=50)
    assert short.playthroughs != default.playthroughs
    assert {f.code for f in short.findings} - {f.code for f in default.findings}


def _validator_hidden(a: Author) -> None:
    before = codes(a.book("[]", body=UNREACHABLE))
    after = codes(a.book("[30]", body=UNREACHABLE))
    assert before != after, before


def _validator_time_budget(a: Author) -> None:
    before = codes(a.book("60", body=FIGHT), runs=200)
    after = codes(a.book("0.000001", body=FIGHT), runs=200)
    assert after - before, (before, after)


def _state(a: Author) -> None:
    body = "§ 1\n> note {0}\n-> 2 (if {0}) Go on\n\n§ 2\n> victory\n"
    flags = "drapeaux" if a.french else "flags"
    text = plain(a.book(f"{{{flags}: [calf following]}}", body=body.format("calf following")))
    assert "Notes: calf following" in text and "Go on" in text  # the flag is set and tested


CORRIDOR = "".join(f"§ {n}\nA corridor.\n-> {n + 1} Walk on\n\n" for n in range(1, 12))
CORRIDOR += "§ 12\n> victory\n"


def _pinned(a: Author) -> None:
    from dedale.export.shuffle import renumber

    free = [renumber(load_book(a.book("[]", body=CORRIDOR)), seed)[5] for seed in range(4)]
    kept = [renumber(load_book(a.book("[5]", body=CORRIDOR)), seed)[5] for seed in range(4)]
    assert free != [5, 5, 5, 5] and kept == [5, 5, 5, 5], (free, kept)


EFFECTS: dict[str, Callable[[Author], None]] = {
    "title": _title,
    "author": _author,
    "language": _language,
    "ruleset": _ruleset,
    "rules": _rules,
    "start": _start,
    "files": _files,
    "items": _items,
    "creation.fixed_stats": _creation_fixed_stats,
    "creation.reroll": _creation_reroll,
    "creation.default_name": _creation_default_name,
    "creation.gender": _creation_gender,
    "validator.ignore": _validator_ignore,
    "validator.fight_threshold": _validator_fight_threshold,
    "validator.runs": _validator_runs,
    "validator.max_steps": _validator_max_steps,
    "validator.hidden": _validator_hidden,
    "validator.time_budget": _validator_time_budget,
    "state": _state,  # its own keys: tests/audit/test_book_state_keys.py
    "pinned": _pinned,  # dedale export --shuffle keeps these numbers
}
# Sections: their effect is their keys' effects; ``creation`` and ``validator`` themselves.
GROUPS = {"creation", "validator"}


def test_every_documented_key_has_an_effect_check():
    missing = [key for key in documented_keys() if key not in EFFECTS and key not in GROUPS]
    assert not missing, f"no effect check for key {', '.join(missing)}"
    assert not set(EFFECTS) - set(documented_keys()), "an effect check for an unknown key"


@pytest.mark.parametrize("french", [False, True], ids=["en", "fr"])
@pytest.mark.parametrize("path", sorted(EFFECTS))
def test_the_key_has_an_effect(tmp_path, path, french):
    EFFECTS[path](Author(tmp_path / "book", path, french))
