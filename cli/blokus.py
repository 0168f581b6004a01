"""`solver blokus` commands."""

import click


@click.group(name="blokus")
def group() -> None:
    """Blokus: move generation, game records, perft and self-play (not yet implemented)."""
