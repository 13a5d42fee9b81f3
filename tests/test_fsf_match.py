"""fairyforge (UCI) against a current Fairy-Stockfish in Shocking Chess,
refereed by fairyforge's own Board: no illegal move, no time loss, no
protocol error. Skipped where the peer is missing (``scripts/peers`` builds
it into ``.peers/``, or set ``FAIRYFORGE_FSF``).

Fairy-Stockfish plays ``shocking-shock`` from ``tests/data/
fairy-stockfish.ini``, whose deviations are listed there: Black never
captures en passant (a subset of our legal moves), and its FEN writes an en
passant square after every White double step, so it always gets the game
as ``position startpos moves ...``."""

from __future__ import annotations

import pytest
from peers import FAIRYFORGE, FSF_INI, UciPlayer, fairy_stockfish

import fairyforge

FSF = fairy_stockfish()
pytestmark = pytest.mark.skipif(FSF is None, reason="no current Fairy-Stockfish (scripts/peers)")


def players() -> tuple[UciPlayer, UciPlayer]:
    assert FSF is not None
    ours = UciPlayer([*FAIRYFORGE, "uci"], {"UCI_Variant": "shocking"}, "fairyforge")
    theirs = UciPlayer(
        [FSF], {"VariantPath": str(FSF_INI), "UCI_Variant": "shocking-shock"}, "fairy-stockfish"
    )
    return ours, theirs


def play(white: UciPlayer, black: UciPlayer, base_ms: int, inc_ms: int, max_plies: int) -> dict:
    """One game on real clocks; the record says how it ended and why."""
    board = fairyforge.Board("shocking")
    moves: list[str] = []
    clocks = {True: base_ms, False: base_ms}
    for p in (white, black):
        p.new_game()
    while not board.is_game_over(claim_draw=True) and len(moves) < max_plies:
        player = white if board.turn else black
        times = {"wtime": clocks[True], "btime": clocks[False], "winc": inc_ms, "binc": inc_ms}
        move, took, lines = player.play(moves, times, timeout=base_ms / 1000 + 5)
        errors = [line for line in lines if "error" in line.lower() or "invalid" in line.lower()]
        if errors:
            return {"end": "protocol error", "by": player.name, "lines": errors, "moves": moves}
        clocks[board.turn] -= round(took * 1000)
        if clocks[board.turn] <= 0:
            return {"end": "time loss", "by": player.name, "moves": moves}
        clocks[board.turn] += inc_ms
        if move == "(none)" or not board.is_legal(move):
            return {"end": "illegal move", "by": player.name, "move": move, "fen": board.fen()}
        board.push(move)
        moves.append(move)
    outcome = board.outcome(claim_draw=True)
    return {"end": "game", "result": outcome.result() if outcome else "*", "moves": moves}


def test_a_short_game_against_fairy_stockfish() -> None:
    ours, theirs = players()
    try:
        record = play(ours, theirs, base_ms=1000, inc_ms=20, max_plies=16)
    finally:
        ours.close()
        theirs.close()
    assert record["end"] == "game", record
    assert len(record["moves"]) == 16 or record["result"] != "*"


@pytest.mark.slow
def test_two_games_at_3_plus_005_against_fairy_stockfish() -> None:
    ours, theirs = players()
    try:
        records = [
            play(ours, theirs, base_ms=3000, inc_ms=50, max_plies=300),
            play(theirs, ours, base_ms=3000, inc_ms=50, max_plies=300),
        ]
    finally:
        ours.close()
        theirs.close()
    for r in records:
        assert r["end"] == "game", r
