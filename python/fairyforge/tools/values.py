"""Piece values measured by self-play: fairyforge plays itself from starts
made uneven on purpose -- one side without a piece, or with one of its
unit pieces turned into another kind -- and the scores, through Elo, give
each kind's worth in units of the variant's commonest piece.

The method (documented with its assumptions in docs/STUDIES.md):

1. Starts: the variant's start position (the baseline); for each kind on
   the board at the start, the start without one such piece of one side
   (every such piece in turn over the games); for each kind of the
   variant's set absent at the start (Burden's knights, bishops and
   queens, Evolution Chess's bishops, rooks and queens), the start with
   one unit piece of one side replaced by it. Royal pieces are left out.
   Each is played with each side changed, where the side has the kind.
2. Each start's games give White's score, taken to Elo ``e`` (with one
   draw added, so a perfect score stays finite) and its standard error.
3. The model: ``e = base + (sum of White's values - sum of Black's) *
   k``, i.e. Elo linear in material. With ``u_X = k * value(X)`` (Elo per
   piece) that is linear: removing White's X gives ``base - u_X``,
   Black's X ``base + u_X``, turning White's unit U into X ``base + u_X -
   u_U``. A weighted least-squares fit (weights 1/se^2) gives every
   ``u`` and its covariance.
4. A kind's value is ``u_X / u_U`` units (the unit U: the pawn where
   White has pawns, otherwise White's commonest kind -- the knight in
   Evolution Chess), with a 95% interval by the delta method.

>>> measured = imbalances("chess", kinds=["Q"])
>>> [(m.label, len(m.starts)) for m in measured]  # doctest: +NORMALIZE_WHITESPACE
[('baseline', 1), ('white without P', 8), ('black without P', 8),
 ('white without Q', 1), ('black without Q', 1)]
"""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fairyforge
from fairyforge.tools import stats, study

#: Every piece letter of the engine, tried on each variant.
LETTERS = "PNBRQKCMDTAVHG"


class ValuesError(ValueError):
    """A piece-value study that cannot run: no such kind in the variant,
    or nothing to measure."""


@dataclass(frozen=True)
class Imbalance:
    """An uneven start: ``label``; ``op`` is ``"baseline"``, ``"remove"``
    (``side`` lacks one ``kind``) or ``"upgrade"`` (one of ``side``'s
    ``unit`` pieces is a ``kind``); ``starts``: the FENs games take in
    turn."""

    label: str
    op: str
    kind: str
    side: bool
    unit: str
    starts: tuple[str, ...]

    def tags(self) -> dict[str, Any]:
        """What each record carries to be fitted without the plan."""
        return {
            "imbalance": {
                "op": self.op,
                "kind": self.kind,
                "side": "white" if self.side else "black",
                "unit": self.unit,
            }
        }


def _grid(board: fairyforge.Board) -> list[list[str]]:
    """The placement as rows (top rank first) of letters, ``.`` for empty."""
    rows = []
    for rank in board.fen().split()[0].split("/"):
        row: list[str] = []
        digits = ""
        for c in rank + " ":
            if c.isdigit():
                digits += c
                continue
            if digits:
                row.extend("." * int(digits))
                digits = ""
            if c != " ":
                row.append(c)
        rows.append(row)
    return rows


def _placement(rows: list[list[str]]) -> str:
    out = []
    for row in rows:
        text, empty = "", 0
        for c in row:
            if c == ".":
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += c
        out.append(text + (str(empty) if empty else ""))
    return "/".join(out)


def _edited(board: fairyforge.Board, square: tuple[int, int], letter: str) -> str | None:
    """The start FEN with ``letter`` (``.``: nothing) on ``square`` (row,
    column); a removed rook takes its castling right with it. None when
    the variant rejects the position, it is already over, or the edit
    changed the royal pieces (a royal kind is not measured)."""
    rows = _grid(board)
    row, col = square
    old = rows[row][col]
    rows[row][col] = letter
    fields = board.fen().split()
    fields[0] = _placement(rows)
    if old in "Rr" and fields[2] != "-":
        king = next((c for c, x in enumerate(rows[row]) if x == ("K" if old == "R" else "k")), None)
        if king is not None:
            right = "K" if col > king else "Q"
            right = right if old == "R" else right.lower()
            fields[2] = fields[2].replace(right, "") or "-"
    fen = " ".join(fields)
    try:
        made = fairyforge.Board(board.variant.name, fen, **board.variant.options)
    except ValueError:
        return None
    if made.is_game_over(claim_draw=True) or _royals(made) != _royals(board):
        return None
    return fen


def _royals(board: fairyforge.Board) -> set[str]:
    """The squares of both sides' royal pieces."""
    return {board.square_name(s) for c in (True, False) for s in board.royal_squares(c)}


def unit_of(board: fairyforge.Board) -> str:
    """The unit of value: the pawn where White has pawns, otherwise White's
    commonest non-royal kind."""
    royal = _royals(board)
    counts = Counter(
        c
        for r, row in enumerate(_grid(board))
        for f, c in enumerate(row)
        if c.isupper() and _name(board, r, f) not in royal
    )
    if not counts:
        raise ValuesError(f"{board.variant.name}: White has no piece to take as the unit")
    return "P" if "P" in counts else counts.most_common(1)[0][0]


def _name(board: fairyforge.Board, row: int, col: int) -> str:
    return f"{chr(ord('a') + col)}{board.ranks - row}"


def imbalances(
    variant: str, options: dict | None = None, kinds: Sequence[str] | None = None
) -> list[Imbalance]:
    """The starts of a piece-value study (see the module's notes): the
    baseline, the unit kind, then every other measurable kind (or those of
    ``kinds``, upper-case letters), each side where possible. Raises
    :class:`ValuesError` for a kind the variant cannot measure."""
    board = fairyforge.Board(variant, **(options or {}))
    unit = unit_of(board)
    rows = _grid(board)
    royal = _royals(board)
    present = {c for row in rows for c in row if c != "."}
    wanted = [k.upper() for k in kinds] if kinds else None
    out = [Imbalance("baseline", "baseline", unit, True, unit, (board.fen(),))]
    measured = []
    for letter in dict.fromkeys(unit + LETTERS):
        if wanted is not None and letter != unit and letter not in wanted:
            continue
        for side in (True, False):
            symbol = letter if side else letter.lower()
            if symbol in present:
                squares = [
                    (r, f)
                    for r, row in enumerate(rows)
                    for f, c in enumerate(row)
                    if c == symbol and _name(board, r, f) not in royal
                ]
                starts = [_edited(board, sq, ".") for sq in squares]
                op, label = "remove", f"{'white' if side else 'black'} without {letter}"
            elif letter != unit and (unit if side else unit.lower()) in present:
                units = [
                    (r, f)
                    for r, row in enumerate(rows)
                    for f, c in enumerate(row)
                    if c == (unit if side else unit.lower())
                ]
                starts = [_edited(board, sq, symbol) for sq in units]
                op, label = "upgrade", f"{'white' if side else 'black'} {letter} for {unit}"
            else:
                continue
            valid = tuple(s for s in starts if s is not None)
            if valid:
                out.append(Imbalance(label, op, letter, side, unit, valid))
                measured.append(letter)
    if wanted is not None:
        missing = [k for k in wanted if k not in measured]
        if missing:
            raise ValuesError(
                f"invalid option --kinds: {variant} has no measurable {', '.join(missing)} "
                f"(royal pieces and kinds outside its set are left out; measurable: "
                f"{', '.join(dict.fromkeys(measured)) or 'none'})"
            )
    return out


#: The unit's starts and the baseline get this many times the games of the
#: others: every value is divided by the unit's Elo, so its error counts
#: in each of them.
UNIT_GAMES = 3


def make_plan(
    variant: str = "chess",
    *,
    options: dict | None = None,
    kinds: Sequence[str] | None = None,
    unit_games: int | None = None,
    **settings: Any,
) -> study.Plan:
    """A study of :func:`imbalances`: one configuration per uneven start;
    the baseline and the unit's starts get ``unit_games`` games (default
    :data:`UNIT_GAMES` times ``games``); ``settings`` as for
    :func:`fairyforge.tools.study.make_plan` (no grid and no openings file:
    games start from the uneven positions, varied by fair random plies)."""
    for name in ("grid", "openings", "study_configs", "event"):
        if name in settings:
            raise ValuesError(f"a piece-value study takes no {name}")
    if unit_games is not None and unit_games < 1:
        raise ValuesError(f"invalid option --unit-games: {unit_games} (at least 1)")
    games = settings.get("games", 100)
    found = imbalances(variant, options, kinds)
    unit = found[0].unit
    configs = [
        study.Config(
            m.label,
            dict(options or {}),
            m.starts,
            m.tags(),
            (unit_games or UNIT_GAMES * games) if m.kind == unit else None,
        )
        for m in found
    ]
    return study.make_plan(
        variant, options=options, study_configs=configs, event="fairyforge values", **settings
    )


def run(
    plan: study.Plan,
    *,
    out: str | os.PathLike[str] | None = None,
    executor: Any = None,
    workers: int | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> Iterator[dict]:
    """The games of a piece-value plan, as :func:`fairyforge.tools.study.run`."""
    return study.run(plan, out=out, executor=executor, workers=workers, on_start=on_start)


@dataclass(frozen=True)
class PieceValue:
    """A kind's measured value: ``value`` in units of ``unit`` with its 95%
    interval, and ``elo`` (Elo of one such piece) with its interval;
    ``games`` played with it uneven, ``sides`` it was measured on."""

    kind: str
    name: str
    unit: str
    value: float
    low: float
    high: float
    elo: float
    elo_low: float
    elo_high: float
    games: int
    sides: str


def estimate(records: Iterable[dict]) -> dict[str, Any]:
    """Fit the model of the module's notes to the records of a piece-value
    study: ``{"unit", "base_elo", "values": [PieceValue, ...]}`` (the unit
    first, then by value). Raises :class:`ValuesError` without baseline or
    unit games, or when the games do not determine every kind."""
    groups: dict[str, list[dict]] = {}
    for record in records:
        groups.setdefault(record["config"], []).append(record)
    if not groups:
        raise ValuesError("no games to measure values from")
    specs = {label: games[0]["imbalance"] for label, games in groups.items()}
    units = {s["unit"] for s in specs.values()}
    if len(units) != 1:
        raise ValuesError(f"the games measure in different units: {sorted(units)}")
    unit = units.pop()
    kinds = list(
        dict.fromkeys([unit] + [s["kind"] for s in specs.values() if s["op"] != "baseline"])
    )
    column = {kind: 1 + i for i, kind in enumerate(kinds)}
    rows, y, weights = [], [], []
    games_of: Counter[str] = Counter()
    sides_of: dict[str, set[str]] = {}
    for label, games in groups.items():
        spec = specs[label]
        results = Counter(g["result"] for g in games)
        measured = stats.elo_estimate(results["1-0"], results["1/2-1/2"], results["0-1"])
        row = [0.0] * (1 + len(kinds))
        row[0] = 1.0
        sign = 1.0 if spec["side"] == "white" else -1.0
        if spec["op"] == "remove":
            row[column[spec["kind"]]] = -sign
        elif spec["op"] == "upgrade":
            row[column[spec["kind"]]] += sign
            row[column[unit]] -= sign
        if spec["op"] != "baseline":
            games_of[spec["kind"]] += len(games)
            sides_of.setdefault(spec["kind"], set()).add(spec["side"])
        rows.append(row)
        y.append(measured.elo)
        weights.append(1 / max(measured.se, 1e-6) ** 2)
    try:
        beta, cov = stats.least_squares(rows, y, weights)
    except ValueError:
        raise ValuesError(
            "the games do not determine every value: the baseline or the unit's games are missing"
        ) from None
    u = beta[column[unit]]
    var_u = cov[column[unit]][column[unit]]
    values = []
    for kind in kinds:
        i = column[kind]
        elo_kind, var_kind = beta[i], cov[i][i]
        if kind == unit:
            value, half = 1.0, 0.0
        elif u != 0:
            value = elo_kind / u
            var = (var_kind - 2 * value * cov[i][column[unit]] + value * value * var_u) / (u * u)
            half = stats.Z95 * math.sqrt(max(var, 0.0))
        else:
            value, half = math.nan, math.nan
        elo_half = stats.Z95 * math.sqrt(max(var_kind, 0.0))
        values.append(
            PieceValue(
                kind,
                fairyforge.Piece.from_symbol(kind).name,
                unit,
                value,
                value - half,
                value + half,
                elo_kind,
                elo_kind - elo_half,
                elo_kind + elo_half,
                games_of[kind],
                "/".join(sorted(sides_of.get(kind, ()), reverse=True)),
            )
        )
    head, rest = values[0], sorted(values[1:], key=lambda v: -v.elo)
    return {"unit": unit, "base_elo": beta[0], "values": [head, *rest]}


def plot(estimated: dict[str, Any], path: str | os.PathLike[str], title: str) -> Path:
    """A PNG of each kind's value with its 95% interval (White's kinds and
    Black's own kinds in two colours)."""
    plt = study._pyplot()
    values = [v for v in estimated["values"] if not math.isnan(v.value)]
    fig, ax = plt.subplots(figsize=(7, max(2.5, 0.5 * len(values) + 1.2)), layout="constrained")
    names = [f"{v.name} ({v.kind})" for v in values]
    colours = ["#c51b8a" if v.sides == "black" else "#2c7fb8" for v in values]
    errors = [[v.value - v.low for v in values], [v.high - v.value for v in values]]
    ax.barh(names, [v.value for v in values], xerr=errors, color=colours, capsize=4, alpha=0.85)
    for i, v in enumerate(values):
        ax.annotate(
            f"{v.value:.2f}",
            (max(v.high, v.value), i),
            xytext=(4, 0),
            textcoords="offset points",
            va="center",
            fontsize=8,
        )
    right = max(max(v.high, v.value) for v in values)
    ax.set_xlim(right=right + 0.12 * (right - min(0.0, *(v.low for v in values))))
    if len(set(colours)) > 1:
        from matplotlib.patches import Patch

        ax.legend(
            handles=[
                Patch(color="#2c7fb8", label="White's"),
                Patch(color="#c51b8a", label="Black's"),
            ],
            loc="lower right",
            fontsize=8,
        )
    ax.invert_yaxis()
    ax.axvline(0, color="grey", lw=0.8)
    unit = fairyforge.Piece.from_symbol(estimated["unit"]).name
    ax.set_xlabel(f"value in {unit}s (95% interval)")
    ax.set_title(title)
    path = Path(path)
    return study._save(fig, plt, path)
