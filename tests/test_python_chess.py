"""FIDE chess against python-chess: legal moves, check, FEN and game end on
positions reached by seeded random play, and perft/divide at low depth."""

from __future__ import annotations

import random
from collections import Counter

import chess
import pytest

import fairyforge

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POS3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POS4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POS4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
POS5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"
POS6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10"

START_FENS = [
    chess.STARTING_FEN,
    KIWIPETE,
    POS3,
    POS4,
    POS4_MIRRORED,
    POS5,
    POS6,
    # En passant available at once (and the e5 pawn can also take d6 later).
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    # En passant pinned along the rank: c7c5 may not be answered by b5c6.
    "8/2p5/8/KP5r/8/8/8/7k b - - 0 1",
    # Promotions for both sides, with captures onto the back rank.
    "1n2k3/P1P5/8/8/8/8/1p4p1/4K1N1 w - - 0 1",
    "3qk3/2P5/8/8/8/8/6p1/3QK3 b - - 0 1",
    # Castling on both wings, through and out of attacked squares.
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/4b3/4B3/8/8/R3K2R b KQkq - 0 1",
    "r3k2r/p6p/8/8/1n6/8/P5nP/R3K2R w KQkq - 0 1",
    # Double checks, discovered checks and mates nearby.
    "4k3/8/8/8/8/8/3n4/R3K2R w KQ - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
]

MIN_POSITIONS = 2000
MIN_SPECIAL = 5
GAMES_PER_START = 7
DIVIDE_EVERY = 100


def _categorise(cboard: chess.Board, move: chess.Move) -> str | None:
    if cboard.is_castling(move):
        return "castling"
    if cboard.is_en_passant(move):
        return "en_passant"
    if move.promotion:
        return "promotion"
    return None


def _choose(rng: random.Random, cboard: chess.Board, ucis: list[str]) -> str:
    """A random legal move, biased toward special moves, captures and pawn
    advances so that castling, en passant and promotions show up."""
    moves = [chess.Move.from_uci(u) for u in ucis]
    special = [m for m in moves if _categorise(cboard, m)]
    if special and rng.random() < 0.7:
        return rng.choice(special).uci()
    r = rng.random()
    if r < 0.3:
        pawns = [m for m in moves if cboard.piece_type_at(m.from_square) == chess.PAWN]
        if pawns:
            return rng.choice(pawns).uci()
    elif r < 0.5:
        captures = [m for m in moves if cboard.is_capture(m)]
        if captures:
            return rng.choice(captures).uci()
    return rng.choice(ucis)


def _check_position(board: fairyforge.Board, cboard: chess.Board) -> set[str]:
    ours = {m.uci() for m in board.legal_moves}
    theirs = {m.uci() for m in cboard.legal_moves}
    fen = cboard.fen()
    assert ours == theirs, (fen, sorted(ours - theirs), sorted(theirs - ours))
    assert len(board.legal_moves) == len(ours), fen  # no duplicates
    assert board.fen() == fen
    assert board.is_check() == cboard.is_check(), fen
    assert board.is_checkmate() == cboard.is_checkmate(), fen
    assert board.is_stalemate() == cboard.is_stalemate(), fen
    assert board.turn == cboard.turn, fen
    return ours


def _random_games():
    """Play seeded random games; yield (our board, python-chess board) for
    every position reached."""
    for index, start in enumerate(START_FENS):
        for seed in range(GAMES_PER_START):
            rng = random.Random(1000 * index + seed)
            board = fairyforge.Board("chess", start)
            cboard = chess.Board(start)
            for _ply in range(rng.randint(20, 40)):
                yield board, cboard
                ucis = sorted(m.uci() for m in board.legal_moves)
                if not ucis:
                    break
                uci = _choose(rng, cboard, ucis)
                board.push_uci(uci)
                cboard.push_uci(uci)
            else:
                yield board, cboard
            # Take every move back: the stack returns through the same FENs.
            while cboard.move_stack:
                assert board.pop().uci() == cboard.pop().uci()
                assert board.fen() == cboard.fen()
            assert board.fen() == fairyforge.Board("chess", start).fen()


def test_random_play_matches_python_chess():
    positions = 0
    available: Counter[str] = Counter()
    played: Counter[str] = Counter()
    checks = checkmates = stalemates = divided = 0
    seen_fens = set()
    for board, cboard in _random_games():
        if positions % DIVIDE_EVERY == 0:
            assert board.perft_divide(2) == _python_chess_divide(cboard, 2), cboard.fen()
            divided += 1
        ours = _check_position(board, cboard)
        positions += 1
        seen_fens.add(cboard.fen())
        checks += cboard.is_check()
        checkmates += cboard.is_checkmate()
        stalemates += cboard.is_stalemate()
        for uci in ours:
            kind = _categorise(cboard, chess.Move.from_uci(uci))
            if kind:
                available[kind] += 1
        if cboard.move_stack:
            last = cboard.pop()
            kind = _categorise(cboard, last)
            cboard.push(last)
            if kind:
                played[kind] += 1
        # The FEN we write reads back to the same position.
        assert fairyforge.Board("chess", board.fen()).fen() == board.fen()
    assert positions >= MIN_POSITIONS
    assert len(seen_fens) >= MIN_POSITIONS // 2
    for kind in ("castling", "en_passant", "promotion"):
        assert played[kind] >= MIN_SPECIAL, (kind, played)
        assert available[kind] >= MIN_SPECIAL, (kind, available)
    assert checks >= MIN_SPECIAL
    assert divided >= MIN_POSITIONS // DIVIDE_EVERY
    assert checkmates >= 1
    # Reported by `pytest -s`; the assertions above are the contract.
    print(
        f"\n{positions} positions ({len(seen_fens)} distinct), played {dict(played)}, "
        f"available {dict(available)}, checks {checks}, mates {checkmates}, "
        f"stalemates {stalemates}, depth-2 divides {divided}"
    )


def _python_chess_divide(cboard: chess.Board, depth: int) -> dict[str, int]:
    def perft(b: chess.Board, d: int) -> int:
        if d == 1:
            return b.legal_moves.count()
        total = 0
        for m in b.legal_moves:
            b.push(m)
            total += perft(b, d - 1)
            b.pop()
        return total

    out = {}
    for m in cboard.legal_moves:
        if depth == 1:
            out[m.uci()] = 1
            continue
        cboard.push(m)
        out[m.uci()] = perft(cboard, depth - 1)
        cboard.pop()
    return out


@pytest.mark.parametrize(
    ("fen", "depth"),
    [
        (chess.STARTING_FEN, 3),
        (KIWIPETE, 2),
        (POS3, 3),
        (POS4, 3),
        (POS5, 2),
        (POS6, 2),
        ("8/2p5/8/KP5r/8/8/8/7k b - - 0 1", 3),
        ("1n2k3/P1P5/8/8/8/8/1p4p1/4K1N1 w - - 0 1", 3),
        ("r3k2r/p6p/8/8/1n6/8/P5nP/R3K2R w KQkq - 0 1", 2),
    ],
)
def test_perft_divide_matches_python_chess(fen, depth):
    expected = _python_chess_divide(chess.Board(fen), depth)
    board = fairyforge.Board("chess", fen)
    divide = board.perft_divide(depth)
    assert divide == expected
    assert list(divide) == sorted(expected)
    assert board.perft(depth) == sum(expected.values())
    assert fairyforge.perft("chess", fen, depth) == sum(expected.values())


@pytest.mark.parametrize(
    ("fen", "uci", "ep_written"),
    [
        # Pinned along the rank: the ep square is not written.
        ("8/2p5/8/KP5r/8/8/8/7k b - - 0 1", "c7c5", False),
        # No pawn beside the double-stepped pawn.
        (chess.STARTING_FEN, "e2e4", False),
        # A legal capture exists.
        ("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4", True),
        # The capturing pawn is pinned on a diagonal it would leave.
        ("7B/8/8/8/3p4/8/4P3/k3K3 w - - 0 1", "e2e4", False),
        # Pinned on the diagonal it moves along: still legal.
        ("8/k7/8/8/3p4/8/4P3/4K1B1 w - - 0 1", "e2e4", True),
    ],
)
def test_en_passant_square_written_as_python_chess(fen, uci, ep_written):
    board = fairyforge.Board("chess", fen)
    cboard = chess.Board(fen)
    board.push_uci(uci)
    cboard.push_uci(uci)
    assert board.fen() == cboard.fen()
    assert (board.fen().split()[3] != "-") == ep_written
    _check_position(board, cboard)
