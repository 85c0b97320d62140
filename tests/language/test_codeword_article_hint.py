"""`> notez le mot-code BÉNI` (a codeword with its article) is read as a flag's name: the
hint says to drop the article, instead of « écrivez `notez mot-code le mot-code BÉNI` »."""

from __future__ import annotations

import pytest
from dedale.errors import BookLoadError
from dedale.language import load_book


@pytest.mark.parametrize(
    ("line", "lang", "hint"),
    [
        ("> notez le mot-code BÉNI", "fr",
         "un mot-code s'écrit sans article\u00a0: `notez mot-code BÉNI` / `note codeword BÉNI`"),
        ("> note the codeword BLESSED", "en",
         "a codeword is written without an article: `notez mot-code BLESSED` / "
         "`note codeword BLESSED`"),
    ],
)  # fmt: skip
def test_a_codeword_with_its_article_gets_the_line_without_it(tmp_path, line, lang, hint):
    path = tmp_path / "livre.dd"
    path.write_text(
        f"---\ntitle: T\nlanguage: {lang}\n---\n§ 1\n{line}\n-> 2 On\n\n§ 2\n> victory\n",
        encoding="utf-8",
    )
    with pytest.raises(BookLoadError) as caught:
        load_book(path)
    (error,) = caught.value.errors
    assert error.render(lang=lang).rstrip().endswith(hint)
