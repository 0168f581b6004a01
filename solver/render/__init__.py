"""render: see the module docstrings."""
