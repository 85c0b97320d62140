"""Print and e-book export: a book as its readers know it on paper.

:mod:`dedale.export.document` is the printed book as data (sections, sentences, enemy
boxes, the rules and the Adventure Sheet); the builders turn a loaded Book into one, the
renderers (HTML, PDF through Typst, EPUB through ebooklib) turn one into a file, and
:mod:`dedale.export.shuffle` renumbers the paragraphs under the printed series' constraints.
"""
