"""Render one page of a book's PDF export as a PNG (the picture in docs/export.md).

    python tools/export_page_picture.py books/le-puits-des-ombres 5 docs/images/export-page.png

The page is set by Typst exactly as ``dedale export --format pdf`` sets it, then rasterised
by Typst itself (no other tool needed).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from dedale.export.build import build_document
from dedale.export.pdf import render_pages_png
from dedale.language import load_book


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book")
    parser.add_argument("page", type=int, help="the page number, from 1")
    parser.add_argument("output")
    parser.add_argument("--ppi", type=float, default=80)
    args = parser.parse_args(argv)
    pages = render_pages_png(build_document(load_book(args.book)), args.ppi)
    Path(args.output).write_bytes(pages[args.page - 1])
    print(f"{args.output}: page {args.page} of {len(pages)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
