"""The one exception type for bad user input: the CLI prints it as a one-line error, exit 2."""


class SolverError(ValueError):
    """Bad input (malformed file, unknown name, impossible option) with a message for the user."""
