"""``fairyforge uci`` driven by python-chess's ``chess.engine``, an
independent UCI client: games on a clock, ``analyse`` with depth and time
limits and MultiPV. Every move must be legal and no clock may run out."""

from __future__ import annotations

import random
import sys
import time

import chess
import chess.engine
import pytest

import fairyforge

COMMAND = [sys.executable, "-m", "fairyforge", "uci"]


@pytest.fixture
def engine():
    e = chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=30)
    yield e
    e.quit()


def play_on_clock(
    white: chess.engine.SimpleEngine | None,
    black: chess.engine.SimpleEngine | None,
    base: float,
    inc: float,
    max_plies: int,
    seed: int = 1,
) -> tuple[chess.Board, list[float]]:
    """Play a game where a None side is a random mover; the clocks are kept
    here from the wall time of each engine move, as a GUI keeps them."""
    rng = random.Random(seed)
    board = chess.Board()
    clocks = {chess.WHITE: base, chess.BLACK: base}
    spent: list[float] = []
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        player = white if board.turn == chess.WHITE else black
        if player is None:
            move = rng.choice(list(board.legal_moves))
        else:
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=inc,
                black_inc=inc,
            )
            start = time.monotonic()
            result = player.play(board, limit)
            took = time.monotonic() - start
            spent.append(took)
            clocks[board.turn] -= took
            assert clocks[board.turn] > 0, f"lost on time at ply {board.ply()} ({spent})"
            clocks[board.turn] += inc
            move = result.move
            assert move in board.legal_moves, (move, board.fen())
        board.push(move)
    return board, spent


def test_a_game_on_a_clock_against_a_random_mover(engine) -> None:
    board, spent = play_on_clock(engine, None, base=2.0, inc=0.05, max_plies=160)
    assert spent, "the engine never moved"
    # A random mover is mated long before the ply limit.
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None and outcome.winner == chess.WHITE, (outcome, board.fen())
    assert max(spent) < 0.8


def test_analyse_with_depth_and_multipv(engine) -> None:
    board = chess.Board()
    board.push_san("e4")
    infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
    assert len(infos) == 3
    assert [i["multipv"] for i in infos] == [1, 2, 3]
    moves = set()
    for info in infos:
        assert info["depth"] == 6
        assert info["seldepth"] >= 6
        assert isinstance(info["score"].relative.score(mate_score=100_000), int)
        assert info["nodes"] > 0 and "nps" in info and "hashfull" in info and "time" in info
        b = board.copy()
        for m in info["pv"]:
            assert m in b.legal_moves, (info["pv"], b.fen())
            b.push(m)
        moves.add(info["pv"][0])
    assert len(moves) == 3


def test_analyse_with_a_time_limit_and_a_mate(engine) -> None:
    board = chess.Board()
    start = time.monotonic()
    info = engine.analyse(board, chess.engine.Limit(time=0.3))
    assert time.monotonic() - start < 1.0
    assert info["depth"] >= 3 and info["pv"][0] in board.legal_moves
    mate = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4")
    info = engine.analyse(mate, chess.engine.Limit(depth=4))
    assert info["score"].relative == chess.engine.Mate(1)
    assert info["pv"][0] == chess.Move.from_uci("h5f7")
    stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    result = engine.play(stalemate, chess.engine.Limit(time=0.1))
    assert result.move is None  # bestmove (none)


def test_options_are_configurable(engine) -> None:
    listed = engine.options["UCI_Variant"].var
    assert listed[:5] == [*fairyforge.BUILTIN_VARIANTS, "capablanca"]
    assert set(listed) <= set(fairyforge.variant_names())
    assert engine.options["Hash"].default == 16
    engine.configure({"Hash": 8, "Threads": 2, "Move Overhead": 20})
    result = engine.play(chess.Board(), chess.engine.Limit(nodes=5000))
    assert result.move in chess.Board().legal_moves


@pytest.mark.slow
def test_a_full_game_against_itself_at_3_plus_005(engine) -> None:
    other = chess.engine.SimpleEngine.popen_uci(COMMAND, timeout=30)
    try:
        board, spent = play_on_clock(engine, other, base=3.0, inc=0.05, max_plies=400)
    finally:
        other.quit()
    assert board.is_game_over(claim_draw=True) or board.ply() == 400
    assert len(spent) == board.ply()
