"""`solver puzzle` commands."""

import click


@click.group(name="puzzle")
def group() -> None:
    """Blokus puzzles solved with CP-SAT (not yet implemented)."""
