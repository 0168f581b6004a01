"""puzzles: see the module docstrings."""
