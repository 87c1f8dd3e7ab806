"""``python -m pyramids`` runs the command line."""

from pyramids.cli.main import main

main()
