"""Puzzle definitions shipped as data (TOML); installed as solver.puzzles.library."""
