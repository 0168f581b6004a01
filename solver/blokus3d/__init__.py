"""Blokus 3D (Rumis): polycube pieces, templates, the game, records, self-play and cube puzzles."""
