"""The Python face of a game: :class:`Board` adds outcomes, search results,
python-chess's square and set-up vocabulary (:class:`SquareSet` answers,
:class:`Status` of a hand-made position, EPD) and notebook display to the
native board."""

from __future__ import annotations

import enum
import os
from collections.abc import Callable, Iterator
from typing import Literal, overload

from typing_extensions import Self

from fairyforge import _core
from fairyforge.epd import EpdOperand, format_operations, parse_operations
from fairyforge.outcome import Outcome, Termination
from fairyforge.results import Info, SearchResult
from fairyforge.squares import SquareSet

#: Variants whose rules treat both sides alike, so that :meth:`Board.mirror`
#: gives a position of the same game with the colours exchanged. Shocking
#: Chess is not among them: its sides have different armies and rules.
COLOR_SYMMETRIC = frozenset({"chess", "burden", "evolution"})


class Status(enum.IntFlag):
    """What is wrong with a position set up by hand (python-chess's flags
    and values; ``VALID`` when nothing is). The royal piece of the variant
    counts as the king: ``NO_WHITE_KING`` is "White has too few royal
    pieces". :meth:`Board.problems` gives the explanation of each."""

    VALID = 0
    NO_WHITE_KING = 1 << 1
    NO_BLACK_KING = 1 << 2
    TOO_MANY_KINGS = 1 << 3
    PAWNS_ON_BACKRANK = 1 << 6
    OPPOSITE_CHECK = 1 << 11
    EMPTY = 1 << 12


class Board(_core.Board):
    """A game of a variant, with python-chess conventions.

    ``Board("burden", royal="maharajah", cycle="knight")`` starts a game;
    ``push``/``pop``/``legal_moves``/``fen()``/``san()`` work as in
    python-chess. Squares are given by name (``"e4"``) or by index
    ``rank * files + file``.

    >>> board = Board("shocking", "c6c/8/4t3/2m5/8/8/8/4K3 b - - 0 1")
    >>> board.push_san("Md5")
    Move.from_uci('c5d5')
    >>> board.outcome()
    Outcome(termination=<Termination.SHOCK: 'shock'>, winner=True, points=None)
    >>> board.result()
    '1-0'
    """

    def outcome(self, *, claim_draw: bool = False) -> Outcome | None:
        """How the game ended, or None while it goes on. Without
        ``claim_draw`` only automatic endings count (checkmate, stalemate,
        shock, extinction, insufficient material, fivefold repetition, the
        75-move rule); with it also threefold repetition and fifty moves."""
        raw = self._outcome(claim_draw)
        if raw is None:
            return None
        name, winner, points = raw
        return Outcome(Termination(name), winner, points)

    def result(self, *, claim_draw: bool = False) -> str:
        """``"1-0"``, ``"0-1"``, ``"1/2-1/2"``, or ``"*"`` while the game goes on."""
        outcome = self.outcome(claim_draw=claim_draw)
        return outcome.result() if outcome else "*"

    @overload
    def search(
        self,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        multipv: Literal[1] = 1,
        threads: int = 1,
        info: Callable[[Info], object] | None = None,
        *,
        hash_mb: int = 16,
        eval: str = "full",
        plain: bool = False,
        weights: str | os.PathLike[str] | None = None,
    ) -> SearchResult: ...
    @overload
    def search(
        self,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        multipv: int = 1,
        threads: int = 1,
        info: Callable[[Info], object] | None = None,
        *,
        hash_mb: int = 16,
        eval: str = "full",
        plain: bool = False,
        weights: str | os.PathLike[str] | None = None,
    ) -> SearchResult | list[SearchResult]: ...
    def search(
        self,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        multipv: int = 1,
        threads: int = 1,
        info: Callable[[Info], object] | None = None,
        *,
        hash_mb: int = 16,
        eval: str = "full",
        plain: bool = False,
        weights: str | os.PathLike[str] | None = None,
    ) -> SearchResult | list[SearchResult]:
        """Search the position; limits: ``depth`` (plies, 1 to
        :data:`fairyforge.MAX_DEPTH`), ``nodes``, ``movetime`` (milliseconds).
        Without any limit the search runs to ``MAX_DEPTH``, which can take
        hours: Ctrl-C or :meth:`stop` from another thread ends it with the
        best move found so far. Runs without the GIL. ``info`` is called
        with an :class:`Info` after every iteration. Returns one
        :class:`SearchResult`, or a list of them (best first) when
        ``multipv > 1`` (:meth:`search_multipv` always returns the list, and
        is what typed code calls). ``eval="material"`` and ``plain=True``
        give the weaker reference players used by matches; ``weights`` is a
        weights file for the board's variant (``fairyforge tune`` writes
        them; docs/TUNING.md) replacing its evaluation weights. Every call
        starts with a fresh table of ``hash_mb`` MiB and fresh move-ordering
        history; a :class:`fairyforge.Engine` keeps both between searches."""
        path = None if weights is None else os.fspath(weights)
        results = self._search(
            depth, nodes, movetime, multipv, threads, hash_mb, eval, plain, info, path
        )
        return results if multipv > 1 else results[0]

    def search_multipv(
        self,
        multipv: int,
        depth: int | None = None,
        nodes: int | None = None,
        movetime: int | None = None,
        threads: int = 1,
        info: Callable[[Info], object] | None = None,
        *,
        hash_mb: int = 16,
        eval: str = "full",
        plain: bool = False,
        weights: str | os.PathLike[str] | None = None,
    ) -> list[SearchResult]:
        """The ``multipv`` best lines, best first, as :meth:`search` with
        the same limits (a list even for ``multipv=1``)."""
        path = None if weights is None else os.fspath(weights)
        return self._search(
            depth, nodes, movetime, multipv, threads, hash_mb, eval, plain, info, path
        )

    # --- pieces and squares (python-chess names) -----------------------------

    def piece_map(self) -> dict[int, _core.Piece]:
        """Every piece by square int, in increasing square order."""
        return dict(self._piece_map())

    def pieces(self, piece_type: int | str, color: bool) -> SquareSet:
        """Squares of the pieces of a kind (python-chess piece type such as
        ``fairyforge.PAWN``, a letter or a name) and colour."""
        return SquareSet(self._pieces(piece_type, color))

    def board_fen(self) -> str:
        """The placement field of the FEN."""
        return self.fen().split(" ", 1)[0]

    def ply(self) -> int:
        """Plies since the start of the game as the fullmove number counts
        them (python-chess's ``ply()``)."""
        return 2 * (self.fullmove_number - 1) + (not self.turn)

    def attackers(self, color: bool, square: int | str) -> SquareSet:
        """Pieces of ``color`` that attack ``square``, pinned ones and
        Robotic hops included."""
        return SquareSet(self._attackers(color, square))

    def is_attacked_by(self, color: bool, square: int | str) -> bool:
        """True when a piece of ``color`` attacks ``square``."""
        return bool(self._attackers(color, square))

    def checkers(self) -> SquareSet:
        """Pieces giving check to the side to move (to any of its royals)."""
        return SquareSet(self._checkers())

    def royals(self, color: bool) -> SquareSet:
        """Squares of every royal piece of ``color`` (Burden may have many
        kings or none; Shocking Chess's Black has one or two Cores)."""
        return SquareSet(self.royal_squares(color))

    def king(self, color: bool) -> int | None:
        """The square of the royal piece of ``color`` when it has exactly
        one, None when it has none. Raises ``ValueError`` when it has
        several: use :meth:`royals`."""
        royals = self.royal_squares(color)
        if len(royals) > 1:
            names = ", ".join(self.square_name(sq) for sq in royals)
            side = "White" if color else "Black"
            raise _core.InvalidSetupError(
                f"king: {side} has {len(royals)} royal pieces ({names}); use royals()"
            )
        return royals[0] if royals else None

    @property
    def castling_rights(self) -> SquareSet:
        """Start squares of the rooks that keep a castling right (as
        python-chess's mask on 8x8 boards); empty in variants without
        castling (Burden, Evolution, Black in Shocking Chess)."""
        return SquareSet(self._castling_rooks())

    def has_castling_rights(self, color: bool) -> bool:
        """True when ``color`` keeps a castling right."""
        return any(letter in self._castling_field() for letter in ("KQ" if color else "kq"))

    def has_kingside_castling_rights(self, color: bool) -> bool:
        """True when ``color`` may still castle king side."""
        return ("K" if color else "k") in self._castling_field()

    def has_queenside_castling_rights(self, color: bool) -> bool:
        """True when ``color`` may still castle queen side."""
        return ("Q" if color else "q") in self._castling_field()

    def _castling_field(self) -> str:
        return self.fen().split(" ")[2]

    def generate_legal_moves(self) -> Iterator[_core.Move]:
        """The legal moves, one by one."""
        return iter(self.legal_moves)

    def generate_pseudo_legal_moves(self) -> Iterator[_core.Move]:
        """The pseudo-legal moves, one by one."""
        return iter(self.pseudo_legal_moves)

    def generate_legal_captures(self) -> Iterator[_core.Move]:
        """The legal captures (en passant and Robotic hop captures
        included), one by one."""
        return (m for m in self.legal_moves if self.is_capture(m))

    # --- positions set up by hand ----------------------------------------------

    def status(self) -> Status:
        """What is wrong with the position as :class:`Status` flags
        (``Status.VALID`` for a position a FEN could give)."""
        flags = Status.VALID
        for name, _ in self._problems():
            flags |= Status[name.upper()]
        return flags

    def is_valid(self) -> bool:
        """True when the position breaks none of its variant's set-up rules."""
        return not self._problems()

    def problems(self) -> list[str]:
        """One sentence per problem of a position set up by hand, such as
        ``"White has 0 royal king (needs exactly 1)"``; empty when valid."""
        return [text for _, text in self._problems()]

    def epd(self, **operations: EpdOperand) -> str:
        """The position as EPD (the FEN's first four fields) followed by
        ``operations``: None, ints, floats, strings, moves (written as SAN)
        and, for ``pv``, ``am`` and ``bm``, lists of moves."""
        text = " ".join(self.fen().split(" ")[:4])
        ops = format_operations(self, operations)
        return f"{text} {ops}" if ops else text

    def set_epd(self, epd: str) -> dict[str, EpdOperand]:
        """Set the position from EPD (the clocks from its ``hmvc`` and
        ``fmvn`` operations) and return its operations, moves parsed as SAN
        on the new position (``pv`` as a line)."""
        parts = epd.strip().rstrip(";").split(maxsplit=4)
        if len(parts) < 4:
            raise _core.InvalidFenError(
                f"invalid EPD: expected 4 fields before the operations, found {len(parts)}"
            )
        probe = self.copy(stack=False)
        probe.set_fen(" ".join(parts[:4]) + " 0 1")
        operations = parse_operations(probe, parts[4] if len(parts) > 4 else "")
        hmvc, fmvn = operations.get("hmvc", 0), operations.get("fmvn", 1)
        if not isinstance(hmvc, int) or not isinstance(fmvn, int):
            raise _core.InvalidFenError("invalid EPD: hmvc and fmvn must be integers")
        self.set_fen(" ".join(parts[:4]) + f" {hmvc} {fmvn}")
        return operations

    # --- colour-symmetric transforms --------------------------------------------

    def mirror(self) -> Self:
        """A copy with the board flipped top to bottom and the colours and
        the side to move exchanged (castling rights follow), as
        python-chess's; only for :data:`COLOR_SYMMETRIC` variants. The copy
        has no move stack."""
        name = self.variant.name
        if name not in COLOR_SYMMETRIC:
            raise _core.InvalidSetupError(
                f"mirror: {name} is not colour-symmetric (its sides have different armies)"
            )
        files, ranks = self.files, self.ranks
        mapping = [sq % files + (ranks - 1 - sq // files) * files for sq in range(files * ranks)]
        board = self.copy(stack=False)
        board._transform(mapping, True)
        return board

    def transform(self, f: Callable[[int], int]) -> Self:
        """A copy with every piece moved by ``f``, a function of square
        masks as python-chess's (``chess.flip_vertical`` and the others work
        on 8x8 boards): ``f(1 << square)`` must be one square of the board,
        each square reached once. The colours stay; castling rights that no
        longer match their pieces are dropped; no move stack."""
        count = self.files * self.ranks
        mapping = []
        for sq in range(count):
            image = f(1 << sq)
            if image <= 0 or image & (image - 1) or image.bit_length() > count:
                raise _core.InvalidSetupError(
                    f"transform: square {sq} maps to mask {image:#x}, not one square"
                )
            mapping.append(image.bit_length() - 1)
        board = self.copy(stack=False)
        board._transform(mapping, False)
        return board

    def _repr_svg_(self) -> str:
        from fairyforge import svg

        check = self.royal_squares(self.turn) if self.is_check() else None
        lastmove = self.peek() if self.move_stack else None
        return svg.board(self, size=400, lastmove=lastmove, check=check)
