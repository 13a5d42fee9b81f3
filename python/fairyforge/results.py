"""Search results as plain values: :class:`Score`, :class:`Info` and
:class:`SearchResult`."""

from __future__ import annotations

from dataclasses import dataclass

from fairyforge._core import Move


@dataclass(frozen=True)
class Score:
    """A score from the point of view of the side to move: centipawns, or
    mate in ``mate`` moves (negative: the side to move is mated)."""

    cp: int | None = None
    mate: int | None = None

    @classmethod
    def from_raw(cls, raw: tuple[str, int]) -> Score:
        kind, value = raw
        return cls(cp=value) if kind == "cp" else cls(mate=value)

    def __str__(self) -> str:
        if self.mate is not None:
            return f"#{self.mate}"
        return f"{(self.cp or 0) / 100:+.2f}"


@dataclass(frozen=True)
class Info:
    """Progress of a search after an iteration (one per MultiPV line)."""

    depth: int
    seldepth: int
    multipv: int
    score: Score
    nodes: int
    nps: int
    time: float
    pv: list[Move]
    hashfull: int


@dataclass(frozen=True)
class SearchResult:
    """The result of a search for one line: best move (None when the side
    to move has no legal move), score, principal variation and counters;
    ``time`` in seconds."""

    best_move: Move | None
    score: Score
    pv: list[Move]
    depth: int
    seldepth: int
    nodes: int
    nps: int
    time: float


def info_from_raw(raw: tuple) -> Info:
    """Build an :class:`Info` from the native tuple."""
    depth, seldepth, multipv, score, nodes, nps, time_ms, pv, hashfull = raw
    return Info(
        depth, seldepth, multipv, Score.from_raw(score), nodes, nps, time_ms / 1000, pv, hashfull
    )


def result_from_raw(raw: tuple) -> SearchResult:
    """Build a :class:`SearchResult` from the native tuple."""
    best, score, pv, depth, seldepth, nodes, nps, time_ms = raw
    return SearchResult(
        best, Score.from_raw(score), pv, depth, seldepth, nodes, nps, time_ms / 1000
    )
