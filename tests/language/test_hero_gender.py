"""``creation: gender: f`` (``création: genre: féminin``): the hero's grammatical gender,
and the located error for a value that is none."""

from __future__ import annotations

import pytest
from dedale.errors import DedaleError
from dedale.language import load_book

BODY = "§ 1\nA trap.\n> death\n"


def _book(tmp_path, creation: str):
    (tmp_path / "book.yaml").write_text(f"title: T\nlanguage: fr\n{creation}", "utf-8")
    (tmp_path / "01.dd").write_text(BODY, "utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("written", "gender"),
    [("création:\n  genre: féminin\n", "f"), ("creation:\n  gender: m\n", "m"), ("", None)],
)
def test_the_gender_is_read(tmp_path, written, gender):
    assert load_book(_book(tmp_path, written)).meta.creation.gender == gender


def test_an_unknown_gender_is_a_located_error(tmp_path):
    with pytest.raises(DedaleError) as caught:
        load_book(_book(tmp_path, "création:\n  genre: neutre\n"))
    shown = caught.value.render()
    assert "book.yaml:4:10" in shown and "neutre" in shown, shown
    assert "`genre: f`" in shown  # the hint, with the key as the author wrote it
