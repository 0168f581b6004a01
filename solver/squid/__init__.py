"""squid: see the module docstrings."""
