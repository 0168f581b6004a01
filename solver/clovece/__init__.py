"""clovece: see the module docstrings."""
