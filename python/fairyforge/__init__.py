"""fairyforge: a fast chess-variant engine with a Rust core.

>>> import fairyforge
>>> board = fairyforge.Board("shocking")
>>> len(board.legal_moves)
20
>>> board.push_uci("e2e4")
Move.from_uci('e2e4')
>>> board.perft(2)
540
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from fairyforge._core import (
    BUILTIN_VARIANTS,
    MAX_DEPTH,
    MAX_HASH_MB,
    MAX_PERFT_DEPTH,
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidSetupError,
    InvalidSquareError,
    InvalidVariantError,
    LegalMoves,
    Move,
    Piece,
    VariantInfo,
    divide_text,
    load_variant,
    perft,
    variant,
    variant_names,
    variants,
)
from fairyforge.board import COLOR_SYMMETRIC, Board, Status
from fairyforge.engine import Engine, time_limits
from fairyforge.outcome import Outcome, Termination
from fairyforge.results import Info, Score, SearchResult
from fairyforge.squares import (
    AUTOMATON,
    BISHOP,
    BLACK,
    COLORS,
    CORE,
    DRONE,
    GRYPHON,
    KING,
    KNIGHT,
    MAHARAJAH,
    MISSILE,
    PAWN,
    PIECE_NAMES,
    PIECE_SYMBOLS,
    PIECE_TYPES,
    QUEEN,
    ROOK,
    ROVER,
    TURRET,
    WHITE,
    SquareSet,
)

try:
    from importlib.metadata import version as _version

    __version__ = _version("fairyforge")
except Exception:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"


def search(
    variant: str = "chess",
    fen: str | None = None,
    *,
    options: Mapping[str, str | int | bool] | None = None,
    depth: int | None = None,
    nodes: int | None = None,
    movetime: int | None = None,
    threads: int = 1,
    info: Callable[[Info], object] | None = None,
    hash_mb: int = 16,
    eval: str = "full",
    plain: bool = False,
) -> SearchResult:
    """Search a position of a variant: ``fairyforge.search("shocking",
    depth=6)``; variant options go in ``options``, limits as in
    :meth:`Board.search` (for several lines use
    :meth:`Board.search_multipv`)."""
    board = Board(variant, fen, **dict(options or {}))
    return board.search(
        depth,
        nodes,
        movetime,
        1,
        threads,
        info,
        hash_mb=hash_mb,
        eval=eval,
        plain=plain,
    )


def study(
    variant: str = "chess",
    *,
    out: str | os.PathLike[str] | None = None,
    executor: Any = None,
    workers: int | None = None,
    **settings: Any,
) -> Iterator[dict]:
    """A self-play balance study (see :mod:`fairyforge.tools.study` and
    docs/STUDIES.md): an iterator over the game records, those already in
    ``out`` first, then each new one as it finishes. ``settings`` as for
    :func:`fairyforge.tools.study.make_plan` (``options``, ``grid``,
    ``games``, ``nodes``, ``movetime``, ``tc``, ``openings``, ``seed``,
    ...); ``executor``: a ``concurrent.futures.Executor`` or a Dask
    ``Client`` (default: a local process pool of ``workers``).
    ``fairyforge.tools.study.summarize(records)`` sums them up."""
    from fairyforge.tools import study as _study

    plan = _study.make_plan(variant, **settings)
    return _study.run(plan, out=out, executor=executor, workers=workers)


def values(
    variant: str = "chess",
    *,
    out: str | os.PathLike[str] | None = None,
    executor: Any = None,
    workers: int | None = None,
    **settings: Any,
) -> Iterator[dict]:
    """Piece values by self-play from uneven starts (see
    :mod:`fairyforge.tools.values`): an iterator over the game records, as
    :func:`study`; ``settings`` as for
    :func:`fairyforge.tools.values.make_plan` (``options``, ``kinds``,
    ``games``, limits, ``seed``). ``fairyforge.tools.values.estimate(records)``
    turns them into values."""
    from fairyforge.tools import values as _values

    plan = _values.make_plan(variant, **settings)
    return _values.run(plan, out=out, executor=executor, workers=workers)


__all__ = [
    "AUTOMATON",
    "BISHOP",
    "BLACK",
    "COLORS",
    "COLOR_SYMMETRIC",
    "CORE",
    "DRONE",
    "GRYPHON",
    "KING",
    "KNIGHT",
    "MAHARAJAH",
    "MISSILE",
    "PAWN",
    "PIECE_NAMES",
    "PIECE_SYMBOLS",
    "PIECE_TYPES",
    "QUEEN",
    "ROOK",
    "ROVER",
    "TURRET",
    "WHITE",
    "AmbiguousMoveError",
    "Board",
    "Engine",
    "IllegalMoveError",
    "Info",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidSquareError",
    "MAX_DEPTH",
    "MAX_HASH_MB",
    "MAX_PERFT_DEPTH",
    "InvalidSetupError",
    "LegalMoves",
    "Move",
    "Outcome",
    "Piece",
    "Score",
    "SearchResult",
    "SquareSet",
    "Status",
    "Termination",
    "VariantInfo",
    "divide_text",
    "perft",
    "search",
    "study",
    "time_limits",
    "values",
    "variant",
    "variants",
    "variant_names",
    "load_variant",
    "BUILTIN_VARIANTS",
    "InvalidVariantError",
]
