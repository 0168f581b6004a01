"""thegame: see the module docstrings."""
