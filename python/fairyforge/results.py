"""Search results as values: :class:`Score`, :class:`Info` and
:class:`SearchResult` (native, frozen, comparable and picklable).

``SearchResult(best_move, score, pv, depth, seldepth, nodes, nps, time)``:
the best move (None when the side to move has no legal move), its score, the
principal variation and counters, ``time`` in seconds. ``Info`` (depth,
seldepth, multipv, score, nodes, nps, time, pv, hashfull) reports an
iteration. ``Score(cp=...)`` or ``Score(mate=...)``, from the side to move's
point of view; ``str()`` gives ``+0.25`` or ``#3``.
"""

from __future__ import annotations

from fairyforge._core import Info, Score, SearchResult

__all__ = ["Info", "Score", "SearchResult"]
