"""``python -m fairyforge``: the command line."""

from fairyforge.tools.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
