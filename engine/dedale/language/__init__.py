"""The book language: paragraph files -> AST (``parse_text``), book folders -> Book
(``load_book``). Grammar in grammar/book.lark, reference in docs/language.md.

Pieces: ``keywords`` (folding, vocabularies), ``parser`` (line classification, Lark,
error messages), ``fastpath`` (grammar-derived shortcuts), ``transform`` (tree -> AST
nodes), ``assemble`` (lines -> paragraphs), ``metadata`` (book.yaml), ``checks`` (names
against the ruleset), ``loader`` (files -> Book), ``suspicious`` (prose that reads like a
rule, for the validator).
"""

from __future__ import annotations

from dedale.language.loader import EXTENSION, load_book
from dedale.language.parser import parse_text
from dedale.language.suspicious import Suspicion, suspicious_prose

__all__ = ["EXTENSION", "Suspicion", "load_book", "parse_text", "suspicious_prose"]
