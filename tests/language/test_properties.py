"""Property tests: any generated or mutated input loads or raises the loader's typed error.

Never anything else: no IndexError, no Lark exception, no traceback for the author.
"""

from __future__ import annotations

from pathlib import Path

from dedale.errors import BookLoadError
from dedale.language import load_book, parse_text
from dedale.language.parser import grammar_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
SEEDS = [p.read_text("utf-8") for p in sorted((HERE / "cases" / "valid").glob("*.dd"))]
SEEDS.append((ROOT / "books" / "first-steps" / "01-first-steps.dd").read_text("utf-8"))
FRONT = "---\ntitle: Mutant\nruleset: df-classic\n---\n"
TRICKY = "§#>-()[]{},:;/\\\n\r\t \u00a0’'\"0123456789dD+-=<!éÉàœ\u0301\x00\ufeff"

FAST = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def _parse_or_typed_error(text: str) -> None:
    try:
        parse_text(text, "generated.dd")
    except BookLoadError as error:
        assert error.errors
        for item in error.errors:
            assert item.span is not None and item.span.line >= 1
            item.render()  # rendering never fails either


# Latin letters (accents included): the whole of Unicode makes generation slow for little
# gain; free-text terminals get explicit strategies for the same reason (generating from
# their lookahead regexes is what makes from_lark slow).
LATIN = st.characters(max_codepoint=0x17F, exclude_categories=["Cs"])
NAMES = st.sampled_from(
    ["SKILL", "HABILETÉ", "or", "Épée", "Clé de fer", "GOBLIN", "cellar", "x", "and", "visité"]
)
TEXT = st.text(LATIN, max_size=12)
EXPLICIT = {
    "NAME": NAMES,
    "WORD": NAMES,
    "ITEM_TEXT": NAMES,
    "ENEMY_NAME": st.sampled_from(["GOBLIN", "Cave Troll", "ORC SKILL", "Rôdeur"]),
    "LABEL_TEXT": TEXT,
    "CHOICE_TEXT": TEXT,
}


@settings(FAST, max_examples=30)
@given(from_lark(Lark(grammar_text(), parser="lalr"), alphabet=LATIN, explicit=EXPLICIT))
def test_sentences_of_the_grammar_parse_or_fail_cleanly(text):
    _parse_or_typed_error(text)


@st.composite
def mutated(draw):
    """A valid case with a few characters inserted, deleted or lines duplicated/swapped."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["insert", "delete", "dup", "swap", "truncate"]))
        at = draw(st.integers(0, max(0, len(text) - 1)))
        if kind == "insert":
            text = text[:at] + draw(st.sampled_from(TRICKY)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)) :]
        elif kind == "truncate":
            text = text[:at]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(0, len(lines) - 1))
            if kind == "dup":
                lines.insert(j, lines[i])
            else:
                lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text


@FAST
@given(mutated())
def test_mutated_paragraph_text_parses_or_fails_cleanly(text):
    _parse_or_typed_error(text)


@settings(FAST, max_examples=30)
@given(
    text=mutated(),
    raw=st.binary(max_size=8),
    front_at=st.integers(0, len(FRONT) - 1),
    front_char=st.sampled_from(TRICKY + "[]{}&*!|>%@`"),
)
def test_mutated_books_load_or_fail_cleanly(tmp_path_factory, text, raw, front_at, front_char):
    folder = tmp_path_factory.mktemp("book")
    path = folder / "mutant.dd"
    front = FRONT[:front_at] + front_char + FRONT[front_at:]
    path.write_bytes(front.encode() + text.encode("utf-8", "surrogatepass") + raw)
    try:
        book = load_book(path)
    except BookLoadError as error:
        assert error.errors
        error.render()
    else:
        assert book.paragraphs
