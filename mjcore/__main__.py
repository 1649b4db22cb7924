"""``python -m mjcore …`` runs the ``mjcore`` command line."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="mjcore")
