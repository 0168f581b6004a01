"""`solver squid` commands."""

import click


@click.group(name="squid")
def group() -> None:
    """Squid Game board game: sub-games and Monte Carlo analysis (not yet implemented)."""
