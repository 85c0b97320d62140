"""Sample books bundled with Dédale, shipped inside the wheel as ``dedale.books``."""
