"""One module per ``dedale`` subcommand: ``add_arguments(parser)`` and ``run(args)``.

These modules must import their heavy dependencies (Textual, the validator) inside
``run`` so that building the parser stays cheap.
"""
