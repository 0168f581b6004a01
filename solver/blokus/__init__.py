"""blokus: see the module docstrings."""
