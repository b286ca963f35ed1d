"""`python -m regelwerk`: the same entry point as the `regelwerk` console script."""

from regelwerk.cli.app import main

main()
