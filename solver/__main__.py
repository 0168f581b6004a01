"""``python -m solver`` runs the command line."""

from solver.cli.main import main

main()
