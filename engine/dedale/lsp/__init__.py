"""``dedale lsp``: a language server for ``.dd`` paragraph files and book.yaml (pygls).

The server (:mod:`dedale.lsp.server`) wires the handlers of the other modules: the book
the edited file belongs to (:mod:`.books`), loaded with the editor's unsaved texts
(:mod:`.overlay`); its diagnostics (:mod:`.diagnostics`), an index of its paragraphs and
names (:mod:`.index`), completion, navigation, hover, rename, symbols and code actions.
"""
