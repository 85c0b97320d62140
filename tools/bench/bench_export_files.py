"""Benchmark: ``dedale export`` — the shuffle, the PDF and the EPUB, and how good the
shuffle's page estimate is against the pages Typst really sets.

    python tools/bench/bench_export_files.py [--runs 5] [--sizes 400 1000]

For each sample book (and synthetic books of ``--sizes`` paragraphs from gen_book.py):
median wall times of ``runs`` shuffles (``dedale.export.shuffle.plan`` with the Document's
lengths), PDF and EPUB renders; then, for the book shuffled with seed 1, the links whose
ends share a page spread on the estimated pages and on the PDF's real pages (from a Typst
query), against an unshuffled book, and the estimate's mean and largest error in pages.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from dedale.export.build import build_document  # noqa: E402
from dedale.export.epub import render_epub  # noqa: E402
from dedale.export.pdf import render_pdf, section_pages  # noqa: E402
from dedale.export.shuffle import links_of, plan  # noqa: E402
from dedale.export.shuffle_pages import measured_model, section_lengths  # noqa: E402
from dedale.language import load_book  # noqa: E402
from gen_book import write_book  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def median_time(runs: int, call) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def same_spread(links, pages) -> int:
    return sum(1 for a, b in links if pages[a] // 2 == pages[b] // 2)


def measure(name: str, folder: Path, runs: int) -> None:
    book = load_book(folder)
    document = build_document(book)
    lengths = section_lengths(document)
    model = measured_model(document, lengths)
    first, per_page = model.first_page, model.per_page

    def shuffle():
        return plan(book, 1, lengths=lengths, per_page=per_page, first_page=first)

    t_shuffle = median_time(runs, shuffle)
    result = shuffle()
    shuffled = document.renumbered(result.mapping)
    t_pdf = median_time(runs, lambda: render_pdf(shuffled))
    t_epub = median_time(runs, lambda: render_epub(shuffled))
    links = links_of(book)
    real_before = section_pages(document)
    real = section_pages(shuffled)
    new_links = [(result.mapping[a], result.mapping[b]) for a, b in links]
    errors, offset = [], 0
    for section in shuffled.sections:
        old = next(o for o, n in result.mapping.items() if n == section.number)
        estimated = first + offset // per_page
        errors.append(abs(estimated - real[section.number]))
        offset += lengths[old] + 120
    print(
        f"{name:22} {len(book.paragraphs):5} §  shuffle {t_shuffle:6.3f} s  pdf {t_pdf:6.3f} s  "
        f"epub {t_epub:6.3f} s  pages {max(real.values()):3}  links {len(links):5}  "
        f"same spread: unshuffled {same_spread(links, real_before):4}, "
        f"shuffled est. {len(result.same_spread):4} / real {same_spread(new_links, real):4}  "
        f"adjacent {len(result.adjacent)}  page error mean {statistics.mean(errors):.2f} "
        f"max {max(errors)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="Export benchmark")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=[400])
    args = parser.parse_args()
    for folder in sorted((ROOT / "books").iterdir()):
        if (folder / "book.yaml").is_file():
            measure(folder.name, folder, args.runs)
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            measure(f"synthetic {n}", write_book(Path(tmp) / f"book{n}", n), args.runs)


if __name__ == "__main__":
    main()
