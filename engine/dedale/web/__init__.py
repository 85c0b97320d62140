"""``dedale serve``: the Textual player in a browser, through textual-serve.

Each browser connection runs its own ``dedale play`` process (textual-serve's model); a cookie
names the browser's session, and each session keeps its saves in a folder of its own under the
server's data folder (:mod:`dedale.web.sessions`). The page (:mod:`dedale.web.page`) is titled
with the book's title and speaks the book's language; :mod:`dedale.web.server` glues them to
textual-serve's server. Only this package imports textual-serve.
"""
