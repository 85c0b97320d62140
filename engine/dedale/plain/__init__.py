"""The plain text player: stdin/stdout, for scripts and screen readers."""
