"""A script as a python-chess user would write it against fairyforge,
checked by ``mypy --strict`` (tests/test_typing.py): every call here must
type-check without casts or ignores."""

from __future__ import annotations

import io

import fairyforge
import fairyforge.pgn
from fairyforge import BLACK, KING, PAWN, QUEEN, WHITE, Board, Move, Piece, SquareSet, Status


def best_reply(board: Board) -> Move | None:
    result = board.search(depth=3)
    print(result.best_move, result.score.cp, result.score.mate, result.pv)
    return result.best_move


def lines(board: Board) -> list[str]:
    return [str(line.score) for line in board.search_multipv(2, depth=2)]


def explore() -> None:
    board = Board()
    board.push_san("e4")
    board.push(Move("e7", "e5"))
    board.push(Move.from_uci("g1f3"))
    moves = board.legal_moves
    assert moves.count() == len(list(moves)) and moves.any() and "b8c6" in moves
    captures: list[Move] = list(board.generate_legal_captures())
    pseudo = board.pseudo_legal_moves.count()
    pieces: dict[int, Piece] = board.piece_map()
    pawns: SquareSet = board.pieces(PAWN, WHITE)
    king: int | None = board.king(BLACK)
    attackers = board.attackers(WHITE, "e5") | board.checkers()
    print(captures, pseudo, len(pieces), int(pawns), king, list(attackers), board.ply())
    print(board.piece_type_at("e4") == PAWN, board.color_at(28), board.board_fen(), board.epd())
    print(board.ep_square, int(board.castling_rights), board.has_kingside_castling_rights(WHITE))
    move = Move("b8", "c6")
    flags = [board.is_capture(move), board.gives_check(move), board.is_castling(move)]
    flags += [board.is_en_passant(move), board.is_zeroing(move), board.is_irreversible(move)]
    print(flags, board.evolves_to(move).piece_type, board.san(move))
    copy: Board = board.copy()
    mirrored: Board = copy.mirror()
    print(mirrored.fen(), copy.transform(lambda bb: bb).fen())
    ops = board.set_epd('4k3/8/8/8/8/8/8/4K2R w K - bm O-O; id "castle";')
    print(ops.get("id"), board.status() == Status.VALID, board.is_valid(), board.problems())
    outcome = board.outcome(claim_draw=True)
    print(outcome.result() if outcome else board.result())
    print(board.can_claim_threefold_repetition(), board.is_fivefold_repetition())
    board.push(Move.null())
    print(board.pop() == Move.null())


def set_up() -> Board:
    board = Board("burden")
    board.clear()
    board.set_piece_at("d4", Piece(QUEEN, WHITE))
    board.set_piece_at("h8", Piece.from_symbol("k"))
    board.turn = BLACK
    board.turn = WHITE
    move = board.legal_moves[0]
    assert board.evolves_to(move).piece_type == KING
    print(board.royals(WHITE), board.remove_piece_at("h8"))
    shocking = Board("shocking")
    shocking.push_uci("e2e4")
    hop = next(m for m in shocking.legal_moves if shocking.is_hop(m))
    print(hop, shocking.is_shock(hop))
    return board


def games() -> None:
    text = '[Event "x"]\n\n1. e4 {[%eval 0.3] [%clk 0:01:00]} e5 2. Nf3 *\n'
    game = fairyforge.pgn.read_game(io.StringIO(text))
    assert game is not None
    print(game.headers.get("Event"), game.errors, [node.san() for node in game.mainline()])
    result = fairyforge.search("shocking", depth=2)
    print(result.best_move)


if __name__ == "__main__":
    explore()
    best_reply(Board("evolution"))
    print(lines(Board()))
    set_up()
    games()
