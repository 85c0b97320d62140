"""Found by the book.yaml key audit (issue 12.4): a misspelt ``validator:`` setting was
silently ignored, and the title screen read book.yaml with its own, shorter key table."""

from __future__ import annotations

import pytest
from dedale.errors import BookLoadError
from dedale.language import load_book
from dedale.player.preview import read_preview


@pytest.mark.parametrize(
    ("written", "hint"),
    [("run: 5", "did you mean `runs`?"), ("seuil-combats: 0.5", "did you mean `seuil-de-combat`?")],
)
def test_a_misspelt_validator_setting_is_an_error_at_its_line(tmp_path, written, hint):
    section = "validator" if written.startswith("run") else "validateur"
    path = tmp_path / "book.dd"
    path.write_text(f"---\ntitle: t\n{section}:\n  {written}\n---\n§ 1\n> victory\n", "utf-8")
    with pytest.raises(BookLoadError) as caught:
        load_book(path)
    (error,) = caught.value.errors
    assert (error.span.line, error.span.column) == (4, 3)
    assert error.message.startswith("unknown key") and error.hint == hint


def test_the_title_screen_reads_the_keys_and_languages_as_the_loader_does(tmp_path):
    (tmp_path / "book.yaml").write_text(
        "Titre: La Lanterne\nAuteurs: [Jeanne, Paul]\nLangue: Anglais\n", "utf-8"
    )
    preview = read_preview(tmp_path)
    assert (preview.title, preview.author) == ("La Lanterne", "Jeanne, Paul")
    assert preview.language == "en"
