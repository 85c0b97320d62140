"""``python -m dedale``."""

from dedale.cli import main

raise SystemExit(main())
