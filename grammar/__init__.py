"""The Lark grammars of Dédale, shipped inside the wheel as ``dedale.grammar``."""
