"""`solver clovece` commands."""

import click


@click.group(name="clovece")
def group() -> None:
    """Člověče, napij se!: rules engine and Monte Carlo analysis (not yet implemented)."""
