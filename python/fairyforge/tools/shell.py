"""What every command of the command line shares: the two consoles (results
on standard output, progress, notes and errors on standard error), reading
``--opt key=value`` options, and the check for optional packages."""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Sequence

from rich.console import Console

import fairyforge

#: Progress, notes and errors: standard error.
console = Console(stderr=True, soft_wrap=True)
#: Results (tables): standard output.
results = Console()

#: The optional modules and the extra of the fairyforge package that brings each.
EXTRAS = {"matplotlib": "plot", "cairosvg": "png", "dask.distributed": "dask"}


def require(module: str, what: str) -> None:
    """Fail at once, in one line naming the extra to install, when an
    optional module that ``what`` needs cannot be imported."""
    try:
        importlib.import_module(module)
    except (ImportError, OSError) as e:
        extra = EXTRAS[module]
        raise MissingExtraError(
            f"{what} needs {module.split('.')[0]} ({type(e).__name__}): "
            f"pip install 'fairyforge[{extra}]'"
        ) from None


class MissingExtraError(ValueError):
    """An optional package a requested feature needs is not installed."""


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """Turn repeated ``--opt key=value`` arguments into a dict."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise fairyforge.InvalidOptionError(
                f"invalid option {pair!r}: expected key=value (for example royal=maharajah)"
            )
        options[key.strip()] = value.strip()
    return options


def add_opt(p: argparse.ArgumentParser, *, short: bool = True, of: str = "") -> None:
    """The repeatable ``--opt KEY=VALUE`` variant option of a command (also
    ``-o`` where ``short``; ``of`` says whose option it is, e.g. " of a FEN")."""
    flags = ["--opt", "-o"] if short else ["--opt"]
    p.add_argument(
        *flags,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help=f"variant option{of}, repeatable, e.g. --opt royal=maharajah (default: none)",
    )
