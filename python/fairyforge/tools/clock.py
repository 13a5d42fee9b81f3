"""Time controls for matches: ``10+0.1`` parsed, written as PGN tags and
clock comments.

>>> tc = TimeControl.parse("10+0.1")
>>> (tc.base_ms, tc.increment_ms, str(tc))
(10000, 100, '10+0.1')
>>> format_clock(9_850)
'0:00:09.85'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import fairyforge

_TC_RE = re.compile(r"(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?\Z")


@dataclass(frozen=True)
class TimeControl:
    """A clock per side: ``base_ms`` at the start, ``increment_ms`` added
    after each move (Fischer increment)."""

    base_ms: int
    increment_ms: int = 0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``BASE[+INC]`` in seconds, decimals allowed: ``10+0.1``, ``60``,
        ``0.5+0.05``. Raises :class:`fairyforge.InvalidOptionError`."""
        m = _TC_RE.match(text.strip())
        base = round(float(m.group(1)) * 1000) if m else 0
        if m is None or base <= 0:
            raise fairyforge.InvalidOptionError(
                f"invalid time control {text!r}: expected BASE+INC in seconds, "
                "BASE above 0 (for example 10+0.1 or 60)"
            )
        return cls(base, round(float(m.group(2) or 0) * 1000))

    def __str__(self) -> str:
        """The PGN ``TimeControl`` tag: seconds, ``+`` increment when there is one."""
        base = _seconds(self.base_ms)
        return f"{base}+{_seconds(self.increment_ms)}" if self.increment_ms else base


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.3f}".rstrip("0").rstrip(".")


def format_clock(ms: float) -> str:
    """``H:MM:SS.f`` for PGN ``[%clk]`` and ``[%emt]`` comments, to the
    millisecond with trailing zeros dropped (at least one decimal)."""
    total = max(round(ms), 0)
    hours, rest = divmod(total, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    fraction = f"{millis:03d}".rstrip("0") or "0"
    return f"{hours}:{minutes:02d}:{seconds:02d}.{fraction}"
