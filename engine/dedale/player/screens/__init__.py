"""The player's screens: one module each, styles in the ``.tcss`` file beside it."""
