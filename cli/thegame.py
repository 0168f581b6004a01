"""`solver thegame` commands."""

import click


@click.group(name="thegame")
def group() -> None:
    """The Game: simulation, strategies and win probabilities (not yet implemented)."""
